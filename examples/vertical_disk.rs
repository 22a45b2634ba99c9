//! Benenti 2007, §9.2: a vertical disk rolling on an inclined plane. Its heading turns at a
//! constant rate, so the contact point traces a cycloid-like path down the slope.
use nonholo::models::VerticalDisk;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let disk = VerticalDisk::new().with_alpha(0.1);
    println!("{}", VerticalDisk::EQUATIONS);
    let traj = simulate(
        &disk,
        &[0.0, 0.0, 0.0, 0.0, 2.0, 0.8],
        0.0..10.0,
        &Options::default().sample_every(1.0),
    )?;
    println!(
        "{:>5} {:>10} {:>10} {:>8} {:>8}",
        "t", "x", "y", "spin", "heading"
    );
    for i in 0..traj.len() {
        let s = traj.state(i).unwrap_or_default();
        println!(
            "{:5.1} {:10.5} {:10.5} {:8.4} {:8.4}",
            traj.times()[i],
            s[0],
            s[1],
            s[4],
            s[3]
        );
    }
    traj.write_csv("vertical_disk.csv")?;
    println!("wrote vertical_disk.csv");
    Ok(())
}
