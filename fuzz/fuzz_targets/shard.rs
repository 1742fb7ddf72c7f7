//! The `shard` target: [`tegula_fuzz_support::shard`] (its documentation says what it checks).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tegula_fuzz_support::shard(data));
