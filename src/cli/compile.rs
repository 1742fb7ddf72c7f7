//! `tegula compile` (not implemented yet).

/// Arguments of `tegula compile`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula compile` is not implemented yet")
}
