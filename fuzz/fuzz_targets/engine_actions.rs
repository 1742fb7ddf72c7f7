//! The `engine_actions` target: [`tegula_fuzz_support::engine_actions`] (its documentation says what it checks).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tegula_fuzz_support::engine_actions(data));
