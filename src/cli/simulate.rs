//! `tegula simulate` (not implemented yet).

/// Arguments of `tegula simulate`.
#[derive(clap::Args)]
pub struct Args {}

/// Run the verb.
pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`tegula simulate` is not implemented yet")
}
