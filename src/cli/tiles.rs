//! `tegula tiles` (not implemented yet).

/// Arguments of `tegula tiles`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula tiles` is not implemented yet")
}
