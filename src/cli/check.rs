//! `tegula check` (not implemented yet).

/// Arguments of `tegula check`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula check` is not implemented yet")
}
