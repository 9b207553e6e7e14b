//! Any bytes as the person's words (any length, mixed scripts): reading them for every act
//! never panics, and folding is idempotent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warden::wish::{Act, Name, Wish};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let once = warden::fold::fold(&text);
    assert_eq!(warden::fold::fold(&once), once);
    let said = vec![text];
    for act in &Act::ALL {
        let wish = Wish::new(*act).naming(Name::one("main"));
        let _ = warden::intent::wanted(&wish, &said);
    }
});
