//! `tegula replay` (not implemented yet).

/// Arguments of `tegula replay`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula replay` is not implemented yet")
}
