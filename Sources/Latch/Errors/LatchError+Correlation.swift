import Foundation

extension LatchError {
    /// This error with the flow's correlation id, unless it already carries one (the id the server
    /// answered with, or that of the request it came from).
    func correlated(with correlationID: String) -> LatchError {
        guard self.correlationID == nil else { return self }
        var error = self
        error.correlationID = correlationID
        return error
    }
}

extension UUID {
    /// The form sent as `client-request-id` and kept in errors: lowercase, hyphenated.
    var correlationValue: String { uuidString.lowercased() }
}
