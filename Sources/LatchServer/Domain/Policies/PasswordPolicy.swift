import Foundation

/// The password rules of NIST SP 800-63B § 3.1.1.2: a length window, no composition rules, and a
/// check against a list of commonly used passwords shipped with the server.
public struct PasswordPolicy: Sendable {
    /// The fewest characters accepted (NIST: at least 8).
    public var minimumLength: Int = 8
    /// The most characters accepted (NIST: allow at least 64).
    public var maximumLength: Int = 256
    private let commonPasswords: Set<String>

    /// Creates a policy with the shipped list of common passwords.
    public init() {
        self.init(commonPasswords: CommonPasswords.all)
    }

    /// Creates a policy with an explicit common-password list (lower-cased entries).
    public init(commonPasswords: Set<String>) {
        self.commonPasswords = commonPasswords
    }

    /// Checks `password` for the account `username`.
    /// - Returns: the first rule it breaks, or `nil` when acceptable.
    public func violation(of password: String, username: String) -> PasswordViolation? {
        let length = password.count
        if length < minimumLength { return .tooShort(minimum: minimumLength) }
        if length > maximumLength { return .tooLong(maximum: maximumLength) }
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .invalidCharacters
        }
        let lowered = password.lowercased()
        if commonPasswords.contains(lowered) { return .banned }
        if Set(lowered).count < 3 { return .tooWeak("it repeats too few distinct characters") }
        let localPart = username.split(separator: "@").first.map { String($0).lowercased() } ?? ""
        if localPart.count >= 4, lowered.contains(localPart) { return .tooWeak("it contains the username") }
        if Self.isSequence(lowered) { return .tooWeak("it is a keyboard or counting sequence") }
        return nil
    }

    /// Whether every character follows its predecessor by +1 or -1 (e.g. `abcdefgh`, `98765432`).
    private static func isSequence(_ text: String) -> Bool {
        let scalars = text.unicodeScalars.map(\.value)
        guard scalars.count >= 2 else { return false }
        let step = Int64(scalars[1]) - Int64(scalars[0])
        guard step == 1 || step == -1 else { return false }
        return zip(scalars, scalars.dropFirst()).allSatisfy { Int64($1) - Int64($0) == step }
    }
}
