//! Serde defaults and skip tests the contract's attributes name (`default = "yes"` …).

pub(crate) fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

pub(crate) fn one_tile() -> u8 {
    1
}

pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

pub(crate) fn is_true(b: &bool) -> bool {
    *b
}

pub(crate) fn yes() -> bool {
    true
}
