# Sourced by the bench scripts: writes the Cargo.toml of a crate outside the workspace that
# depends on nonholo as a user's would (no default features, no profile settings), so
# that each build the script times is macro expansion plus rustc on the emitted code.
#   downstream_crate <dir> <package name> <nonholo path>
# MACRO_OPT=3 adds the two lines of the guide's "Large models" chapter that compile the macro optimized
# (Cargo builds proc macros at opt-level 0 in every profile unless told otherwise).
downstream_crate() {
  cat > "$1/Cargo.toml" <<TOML
[package]
name = "$2"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
nonholo = { path = "$3", default-features = false }

[workspace]
TOML
  if [ -n "${MACRO_OPT:-}" ]; then
    printf '\n[profile.dev.package.nonholo-macros]\nopt-level = %s\n[profile.release.package.nonholo-macros]\nopt-level = %s\n' \
      "$MACRO_OPT" "$MACRO_OPT" >> "$1/Cargo.toml"
  fi
}
