//! `tegula render` (not implemented yet).

/// Arguments of `tegula render`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula render` is not implemented yet")
}
