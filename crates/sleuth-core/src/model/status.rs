//! What is known about one card at one place.

/// What is known about "card is at place".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// True in every consistent deal.
    Yes,
    /// False in every consistent deal.
    No,
    /// True in some consistent deals and false in others.
    Maybe,
}

impl Status {
    /// `"yes"`, `"no"` or `"maybe"`, as in the output contract.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Yes => "yes",
            Status::No => "no",
            Status::Maybe => "maybe",
        }
    }
}
