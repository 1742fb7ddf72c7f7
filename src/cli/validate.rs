//! `tegula validate` (not implemented yet).

/// Arguments of `tegula validate`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula validate` is not implemented yet")
}
