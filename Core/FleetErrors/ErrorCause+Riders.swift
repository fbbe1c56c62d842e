extension ErrorCause {
    /// What a rider (or a customer waiting for a shipment) looking at a shared map should read: the
    /// catalogue's `remedy` speaks to the developer, this speaks to the person holding the link (who
    /// can only ask the app again or wait). The map pages show it above the summary and remedy.
    ///
    /// A rate limit or quota (RESOURCE_EXHAUSTED) is a wait, not a broken link: the pages wait as long
    /// as the server's `Retry-After` asks and try again by themselves.
    public var riderAdvice: String {
        switch id {
        case ErrorCause.jwtExpired.id: "This link has expired: ask the app for a new link."
        case ErrorCause.jwtMissing.id: "This link is incomplete (it has no access token): open the link the app gave you again."
        case ErrorCause.jwtInvalid.id, ErrorCause.jwtWithoutTripID.id:
            "This link is not valid: ask the app for a new link."
        case ErrorCause.jwtForOtherResource.id: "This link is for another trip: ask the app for the link to this one."
        case ErrorCause.insufficientRole.id: "This link may not show this page: ask the app for a new link."
        case ErrorCause.tripNotFound.id: "This trip does not exist any more: it may have been cancelled or finished long ago."
        case ErrorCause.vehicleNotFound.id: "This vehicle does not exist any more."
        case ErrorCause.providerNotServed.id: "This link points to the wrong server: ask the app for a new link."
        default:
            if code == .notFound {
                "What this link shows does not exist (any more): it may be over, or the link may be wrong."
            } else if code == .resourceExhausted {
                "Too many requests right now: wait a moment, the page tries again by itself."
            } else if code == .unauthenticated || code == .permissionDenied {
                "This link is not valid: ask the app for a new link."
            } else if code.retryClass == .client {
                "Something in this link is wrong: ask the app for a new link."
            } else {
                "The service cannot be reached right now: the page keeps trying."
            }
        }
    }
}
