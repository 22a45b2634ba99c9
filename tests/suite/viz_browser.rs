//! The HTML viewer in a real browser: headless Chromium opens a page written by
//! `Trajectory::animate_html` at two `#t=` times. The screenshots are not blank and differ,
//! the page logs no script error, and its DOM after the scripts ran says it rendered,
//! paused at the requested time. A page of `animate_html_with_contacts` draws its force
//! arrows until the key `c` hides them.
//!
//! Needs Chromium (`chromium`, `chromium-browser` or `google-chrome` on the `PATH`, or
//! `$NONHOLO_CHROMIUM`). Without one each test writes `SKIPPED viz_browser::…` to stderr
//! (past the test harness's capture) and passes, unless `NONHOLO_REQUIRE_BROWSER=1`, which
//! makes a missing browser a failure (.ci/run sets it and installs the Debian package).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nonholo_runtime::__private::doc_models::Unicycle;
use nonholo_runtime::viz::Animation;

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NONHOLO_CHROMIUM").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// The browser for the test `test`; `None` when there is none, after a line on stderr
/// that says the test is skipped: written to the process's stderr itself, so that it
/// shows though the harness captures what the test prints. With
/// `NONHOLO_REQUIRE_BROWSER=1` a missing browser panics instead.
fn browser_or_skip(test: &str) -> Option<PathBuf> {
    if let Some(browser) = chromium() {
        return Some(browser);
    }
    let why = format!(
        "viz_browser::{test}: no Chromium on the PATH (set NONHOLO_CHROMIUM, or install \
         chromium)"
    );
    if std::env::var("NONHOLO_REQUIRE_BROWSER").as_deref() == Ok("1") {
        panic!("{why}, and NONHOLO_REQUIRE_BROWSER=1 requires one");
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {why}; NONHOLO_REQUIRE_BROWSER=1 makes this a failure"
    );
    None
}

/// Run the browser on `url` with `extra` arguments and a fresh profile; its stdout and
/// stderr. Killed after a minute.
fn run(browser: &Path, work: &Path, tag: &str, url: &str, extra: &[String]) -> (String, String) {
    let profile = work.join(format!("profile-{tag}"));
    let (out, err) = (
        work.join(format!("{tag}.out")),
        work.join(format!("{tag}.err")),
    );
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=800,600",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{} did not finish within a minute ({tag})",
                browser.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (out, err) = (
        std::fs::read_to_string(out).unwrap_or_default(),
        std::fs::read_to_string(err).unwrap_or_default(),
    );
    assert!(status.success(), "browser failed ({tag}): {status}\n{err}");
    (out, err)
}

/// The messages the page's scripts sent to the console.
fn console_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    let rgb = buf
        .chunks_exact(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, rgb)
}

#[test]
fn the_viewer_renders_in_chromium_paused_at_the_requested_times() {
    let Some(browser) =
        browser_or_skip("the_viewer_renders_in_chromium_paused_at_the_requested_times")
    else {
        return;
    };
    let work = std::env::temp_dir().join(format!("nonholo_viz_browser_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();

    let unicycle = Unicycle::default();
    let ride = unicycle
        .ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 4.0, 400)
        .unwrap();
    let page = work.join("ride.html");
    let look = Animation::default()
        .title("Unicycle")
        .trail("W.contact", [196, 78, 82]);
    ride.animate_html(&unicycle, &page, &look).unwrap();
    let url = |t: f64| format!("file://{}#t={t}", page.display());

    let mut shots = Vec::new();
    for (tag, t) in [("early", 0.5), ("late", 3.0)] {
        let shot = work.join(format!("{tag}.png"));
        let (_, err) = run(
            &browser,
            &work,
            tag,
            &url(t),
            &[format!("--screenshot={}", shot.display())],
        );
        let console = console_lines(&err);
        assert!(
            console.is_empty(),
            "the page wrote to the console at t = {t}:\n{}",
            console.join("\n")
        );
        let (w, h, rgb) = read_png(&shot);
        assert_eq!((w, h), (800, 600));
        // not blank: many colours, the background far from everywhere
        let mut colors: Vec<&[u8]> = rgb.chunks_exact(3).collect();
        colors.sort_unstable();
        colors.dedup();
        assert!(colors.len() > 100, "{} colours at t = {t}", colors.len());
        let bg = rgb
            .chunks_exact(3)
            .filter(|p| *p == [247, 248, 250])
            .count();
        let fraction = bg as f64 / (w * h) as f64;
        assert!(
            fraction > 0.2 && fraction < 0.95,
            "background {fraction} at t = {t}"
        );

        // the DOM after the scripts ran: rendered, no error, paused at t
        let (dom, err) = run(
            &browser,
            &work,
            &format!("{tag}-dom"),
            &url(t),
            &["--dump-dom".into()],
        );
        assert!(console_lines(&err).is_empty(), "{err}");
        assert!(
            !dom.contains("data-error=\""),
            "script error at t = {t}:\n{}",
            &dom[..dom.len().min(2000)]
        );
        assert!(
            dom.contains("data-rendered=\"1\""),
            "not rendered at t = {t}"
        );
        assert!(dom.contains("<title>Unicycle</title>"));
        let time = format!("<span id=\"time\">{t:.2} s / 4.00 s</span>");
        assert!(dom.contains(&time), "no {time} in the page");
        assert!(!dom.contains("class=\"playing\""), "not paused at t = {t}");
        shots.push(rgb);
    }
    // the 3D view (above the controls) differs between the two times
    let view = 800 * 3 * 540;
    let changed = shots[0][..view]
        .chunks_exact(3)
        .zip(shots[1][..view].chunks_exact(3))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 2000,
        "only {changed} pixels differ between t = 0.5 and t = 3"
    );

    // opened without a time, it plays
    let (dom, err) = run(
        &browser,
        &work,
        "autoplay",
        &format!("file://{}", page.display()),
        &["--dump-dom".into()],
    );
    assert!(console_lines(&err).is_empty(), "{err}");
    assert!(!dom.contains("data-error=\""));
    assert!(dom.contains("class=\"playing\""), "not playing without #t=");

    // the controls and the mouse: a copy of the page that drives them and records what it
    // saw; no handler may throw
    let html = std::fs::read_to_string(&page).unwrap();
    let driven = work.join("driven.html");
    std::fs::write(
        &driven,
        html.replace("</body>", &format!("{EXERCISE}</body>")),
    )
    .unwrap();
    let url = format!("file://{}#t=2", driven.display());
    let (dom, err) = run(&browser, &work, "driven", &url, &["--dump-dom".into()]);
    assert!(console_lines(&err).is_empty(), "{err}");
    assert!(
        !dom.contains("data-error=\""),
        "{}",
        &dom[..dom.len().min(2000)]
    );
    let log = dom
        .split("data-log=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the driving script did not finish");
    assert_eq!(
        log,
        "follow=false | follow after reset=true | speeds=0.25\u{d7},0.5\u{d7},1\u{d7},2\u{d7},4\u{d7}"
    );
    // the slider moved the time to 3.25 s
    assert!(
        dom.contains("<span id=\"time\">3.25 s / 4.00 s</span>"),
        "{}",
        dom.split("id=\"time\"")
            .nth(1)
            .unwrap_or("")
            .chars()
            .take(80)
            .collect::<String>()
    );
    let _ = std::fs::remove_dir_all(&work);
}

/// A bicycle's page with its contact forces: at the same time and view, the arrows (in
/// the viewer's colour for contacts without friction, violet) are there until the key `c`
/// hides them, which also unticks the `forces` box.
#[test]
fn the_viewer_draws_the_contact_forces_until_they_are_hidden() {
    use nonholo::models::WhippleBicycle;
    use nonholo::prelude::*;

    let Some(browser) =
        browser_or_skip("the_viewer_draws_the_contact_forces_until_they_are_hidden")
    else {
        return;
    };
    let work = std::env::temp_dir().join(format!("nonholo_viz_forces_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();

    let bike = WhippleBicycle::default();
    let mut state = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut state[..WhippleBicycle::NQ])
        .unwrap();
    state[WhippleBicycle::NQ] = 0.3;
    state[WhippleBicycle::NQ + 1] = -5.0 / bike.r_r;
    let ride = simulate(
        &bike,
        &state,
        0.0..1.0,
        &Options::default().sample_every(0.01),
    )
    .unwrap();
    let page = work.join("forces.html");
    ride.animate_html_with_contacts(&bike, &page, &Animation::default().title("Bicycle"))
        .unwrap();
    let hidden = work.join("hidden.html");
    let html = std::fs::read_to_string(&page).unwrap();
    let press = r#"<script>
window.dispatchEvent(new KeyboardEvent("keydown", { key: "c", bubbles: true }));
document.body.setAttribute("data-log", "forces=" + document.getElementById("forces").checked);
</script>
"#;
    std::fs::write(&hidden, html.replace("</body>", &format!("{press}</body>"))).unwrap();

    let mut shots = Vec::new();
    for (tag, file) in [("shown", &page), ("hidden", &hidden)] {
        let url = format!("file://{}#t=0.5", file.display());
        let shot = work.join(format!("{tag}.png"));
        let (_, err) = run(
            &browser,
            &work,
            tag,
            &url,
            &[format!("--screenshot={}", shot.display())],
        );
        assert!(console_lines(&err).is_empty(), "{err}");
        let (dom, err) = run(
            &browser,
            &work,
            &format!("{tag}-dom"),
            &url,
            &["--dump-dom".into()],
        );
        assert!(console_lines(&err).is_empty(), "{err}");
        assert!(
            !dom.contains("data-error=\""),
            "{}",
            &dom[..dom.len().min(2000)]
        );
        assert!(dom.contains("data-rendered=\"1\""));
        if tag == "hidden" {
            assert!(
                dom.contains("data-log=\"forces=false\""),
                "the key did not untick the box"
            );
        }
        shots.push(read_png(&shot).2);
    }
    // the pixels of the 3D view that the forces change, and how many of them are violet
    let violet = |p: &[u8]| {
        let d: i32 = [112, 64, 168]
            .iter()
            .zip(p)
            .map(|(a, b)| (a - i32::from(*b)).pow(2))
            .sum();
        d < 40 * 40
    };
    let view = 800 * 3 * 540;
    let (mut changed, mut arrows) = (0, 0);
    for (a, b) in shots[0][..view]
        .chunks_exact(3)
        .zip(shots[1][..view].chunks_exact(3))
    {
        if a != b {
            changed += 1;
            arrows += usize::from(violet(a) && !violet(b));
        }
    }
    assert!(
        changed > 300 && arrows > 150,
        "{changed} pixels changed, {arrows} violet"
    );
    let _ = std::fs::remove_dir_all(&work);
}

/// Drives the viewer like a person: orbit, pan, zoom, space twice, an arrow key, the
/// slider, the speed, the follow box, the reset button; then writes what it saw into
/// `<body data-log>`.
const EXERCISE: &str = r#"<script>
(function () {
  var c = document.getElementById("view"), log = [];
  function ev(type, x, y, extra) {
    var o = Object.assign({ clientX: x, clientY: y, bubbles: true, pointerId: 1, button: 0 }, extra || {});
    c.dispatchEvent(new PointerEvent(type, o));
  }
  ev("pointerdown", 400, 300); ev("pointermove", 480, 330); ev("pointerup", 480, 330);
  ev("pointerdown", 400, 300, { shiftKey: true }); ev("pointermove", 380, 290, { shiftKey: true });
  ev("pointerup", 380, 290);
  ev("pointerdown", 400, 300, { button: 2 }); ev("pointermove", 420, 310, { button: 2 });
  ev("pointerup", 420, 310);
  c.dispatchEvent(new WheelEvent("wheel", { deltaY: 200, bubbles: true, cancelable: true }));
  c.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
  window.dispatchEvent(new KeyboardEvent("keydown", { key: " ", code: "Space", bubbles: true }));
  window.dispatchEvent(new KeyboardEvent("keydown", { key: " ", code: "Space", bubbles: true }));
  window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
  window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft", bubbles: true }));
  var s = document.getElementById("slider");
  s.value = "3.25";
  s.dispatchEvent(new Event("input", { bubbles: true }));
  var sp = document.getElementById("speed");
  sp.value = "4";
  sp.dispatchEvent(new Event("change", { bubbles: true }));
  var f = document.getElementById("follow");
  f.click();
  log.push("follow=" + f.checked);
  document.getElementById("reset").click();
  log.push("follow after reset=" + f.checked);
  log.push("speeds=" + Array.prototype.map.call(sp.options, function (o) { return o.textContent; }).join(","));
  setTimeout(function () { document.body.setAttribute("data-log", log.join(" | ")); }, 100);
})();
</script>
"#;
