/// Validation of the user-supplied values native-auth flows share.
enum NativeAuthInput {
    /// The normalized e-mail username.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` when absent, ``AuthFailure/invalidParameter(_:)``
    ///   when not an e-mail address.
    static func username(_ username: String?) throws -> String {
        guard let username, !username.isEmpty else { throw AuthFailure.missingParameter(.username) }
        let email = User.normalizeEmail(username)
        guard User.isPlausibleEmail(email) else { throw AuthFailure.invalidParameter(.username) }
        return email
    }

    /// Validates submitted sign-up attributes: names of at most 64 characters, string values that
    /// pass the tenant's definition (or, for undefined attributes, the generic rules: non-empty, at
    /// most 256 characters, no control characters).
    /// - Parameter submitted: the attributes by name; a `nil` value is one that was not a string.
    /// - Throws: ``AuthFailure/invalidAttributes(_:)`` naming the attributes that fail validation.
    static func attributes(_ submitted: [String: String?], definitions: [AttributeDefinition]) throws -> [String: String] {
        var values: [String: String] = [:]
        var invalid: [String] = []
        for (name, value) in submitted {
            let definition = definitions.first(where: { $0.name == name }) ?? AttributeDefinition(name: name)
            guard let value, name.count <= 64, definition.accepts(value) else {
                invalid.append(name)
                continue
            }
            values[name] = value
        }
        guard invalid.isEmpty else { throw AuthFailure.invalidAttributes(invalid.sorted()) }
        return values
    }
}
