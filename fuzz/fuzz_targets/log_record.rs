//! Any bytes as a stored record or snapshot: read or skipped with a reason, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = warden_storage::codec::read_record(data);
    let _ = warden_storage::codec::read_snapshot(data);
});
