import Foundation

extension LatchError {
    /// What the app should do next, so no app needs to match message strings.
    public enum Recovery: Sendable, Equatable {
        /// Nothing will help without a change (a bug or a configuration mistake); log it.
        case none
        /// Try the same call again, after the delay when one is given.
        case retry(after: TimeInterval?)
        /// Ask the user to correct their input (username, password, attributes) and submit again.
        case correctInput
        /// Ask for a new one-time code (``resendCode`` on the state) and submit that.
        case resendCode
        /// Start the flow again from the beginning.
        case restartFlow
        /// Sign in again (the session ended); pass `claimsChallenge` to the sign-in when present.
        case signInAgain(claimsChallenge: String?)
        /// Continue in a browser.
        case useBrowser
        /// Offer sign-in instead (the account exists).
        case signInInstead
        /// Offer sign-up instead (no such account).
        case signUpInstead
        /// Check the credential store (device locked, disk full, permissions).
        case checkCredentialStore
        /// Offer another method or contact: the one chosen is blocked (``Code/authMethodBlocked``,
        /// ``Code/verificationContactBlocked``). The state the call was made on stays usable.
        case chooseAnotherMethod
        /// The tokens for these scopes (the granted ones) are stored: use them, or ask for the
        /// declined ones again later (``Code/serverDeclinedScopes``).
        case retryWithScopes([String])
        /// Satisfy the protection policy of this name (e.g. `app_attestation`): supply its evidence
        /// through ``LatchConfiguration/requestHeaders``, then try again
        /// (``Code/serverProtectionPoliciesRequired``). Empty when the server named none.
        case satisfyProtectionPolicy(name: String)
    }
}
