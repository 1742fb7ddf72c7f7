//! Tests of the rule form's lowering.
