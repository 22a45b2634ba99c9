//! What a contact guard watches: the events of a hybrid run.

/// What a contact guard watches ([`Model::CONTACT_GUARDS`](crate::Model::CONTACT_GUARDS)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContactEvent {
    /// The normal force reaches zero: the wheel would leave the ground.
    LiftOff,
    /// The friction needed reaches `mu N`: the wheel would slip.
    Slip,
    /// A sliding contact's slip velocity reaches zero and rolling needs no more than
    /// `mu N`: the wheel grips again.
    Stick,
}

impl core::fmt::Display for ContactEvent {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ContactEvent::LiftOff => "lifts off (its normal force reaches 0)",
            ContactEvent::Slip => "slips (the friction it needs reaches mu N)",
            ContactEvent::Stick => "grips again (its slip velocity reaches 0)",
        })
    }
}
