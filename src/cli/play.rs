//! `tegula play` (not implemented yet).

/// Arguments of `tegula play`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula play` is not implemented yet")
}
