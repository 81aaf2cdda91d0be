//! Tests named after the GITM rules.
