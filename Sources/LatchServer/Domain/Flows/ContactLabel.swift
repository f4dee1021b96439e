/// Masks a contact for `challenge_target_label` and `login_hint`: an e-mail address as
/// `a***@e***.com`, a phone number as `+1******0123`.
enum ContactLabel {
    static func mask(_ contact: FlowState.PendingContact) -> String {
        switch contact.channel {
        case .email: mask(contact.target)
        case .sms: PhoneNumber.mask(contact.target)
        }
    }

    static func mask(_ email: String) -> String {
        let parts = email.split(separator: "@", maxSplits: 1)
        guard parts.count == 2 else { return "***" }
        let domainParts = parts[1].split(separator: ".")
        let tld = domainParts.count > 1 ? "." + domainParts.last! : ""
        return "\(parts[0].prefix(1))***@\(parts[1].prefix(1))***\(tld)"
    }
}
