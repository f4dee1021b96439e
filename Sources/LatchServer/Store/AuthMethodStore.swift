import Foundation

/// Users' strong authentication methods.
public protocol AuthMethodReading {
    /// The methods of `userID` in `tenantID`, oldest first.
    func authMethods(userID: String, tenantID: String) throws -> [AuthMethod]
}

/// Changes to strong authentication methods.
public protocol AuthMethodWriting: AuthMethodReading {
    /// Adds `method`; ``StoreError/conflict`` if its id, or its user's channel and target, is taken.
    func insert(_ method: AuthMethod) throws
    /// Deletes the method `id` of `userID` in `tenantID`.
    /// - Returns: whether one was deleted.
    func deleteAuthMethod(id: String, userID: String, tenantID: String) throws -> Bool
}
