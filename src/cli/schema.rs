//! `tegula schema` (not implemented yet).

/// Arguments of `tegula schema`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula schema` is not implemented yet")
}
