/// Masks an e-mail address for `challenge_target_label`, e.g. `a***@e***.com`.
enum ContactLabel {
    static func mask(_ email: String) -> String {
        let parts = email.split(separator: "@", maxSplits: 1)
        guard parts.count == 2 else { return "***" }
        let domainParts = parts[1].split(separator: ".")
        let tld = domainParts.count > 1 ? "." + domainParts.last! : ""
        return "\(parts[0].prefix(1))***@\(parts[1].prefix(1))***\(tld)"
    }
}
