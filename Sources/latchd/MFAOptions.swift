import LatchServer

/// The `--mfa*` options of `tenant create` and `tenant update`: each one given replaces that part of
/// the tenant's ``MFASettings``; those not given leave it as it is.
enum MFAOptions {
    /// The option specs, shared by both commands.
    static let specs: [CommandSpec.Option] = [
        .valued("mfa", "off|required|conditional", "When sign-in needs a second factor (default off)."),
        .valued(
            "mfa-sign-in-email", "on|off",
            "Whether the verified sign-in e-mail counts as an e-mail method (default off)."),
        .valued("mfa-channels", "email,sms", "The channels users may register methods on (default email,sms)."),
        .valued(
            "mfa-block", "CONTACT",
            "Block a contact for methods: +PREFIX for phone numbers, @DOMAIN for e-mail, or a whole contact "
                + "(repeatable; replaces the list; '-' clears it).", repeatable: true),
        .valued(
            "mfa-rule", "RULE",
            "A conditional-access rule, e.g. scope=files.write,client=admin-app,max-age=1h: sign-ins for any "
                + "such scope or client need a second factor (repeatable; replaces the rules; '-' clears them).",
            repeatable: true),
    ]

    /// The changes the options ask for, to apply to a tenant's settings.
    static func changes(_ arguments: Arguments) throws -> (inout MFASettings) -> Void {
        var steps: [(inout MFASettings) -> Void] = []
        if let text = arguments.value("mfa") {
            guard let policy = MFASettings.Policy(rawValue: text) else {
                throw UsageError("option '--mfa' is off, required or conditional, not '\(text)'")
            }
            steps.append { $0.policy = policy }
        }
        if let text = arguments.value("mfa-sign-in-email") {
            guard text == "on" || text == "off" else {
                throw UsageError("option '--mfa-sign-in-email' is on or off, not '\(text)'")
            }
            steps.append { $0.signInEmailIsMethod = text == "on" }
        }
        if let text = arguments.value("mfa-channels") {
            let channels = try text.split(separator: ",").map { name in
                guard let channel = DeliveryChannel(rawValue: String(name)) else {
                    throw UsageError("option '--mfa-channels' lists email and sms, not '\(text)'")
                }
                return channel
            }
            steps.append { $0.channels = channels }
        }
        let blocked = arguments.values("mfa-block")
        if !blocked.isEmpty {
            let entries = blocked == ["-"] ? [] : blocked
            steps.append { $0.blockedContacts = entries }
        }
        let rules = arguments.values("mfa-rule")
        if !rules.isEmpty {
            let parsed = rules == ["-"] ? [] : try rules.map(rule)
            steps.append { $0.rules = parsed }
        }
        return { settings in for step in steps { step(&settings) } }
    }

    /// One `--mfa-rule` value: comma-separated `scope=S`, `client=C` (each repeatable) and `max-age=AGE`
    /// (seconds, or with `s`, `m`, `h` or `d`).
    static func rule(_ text: String) throws -> ConditionalAccessRule {
        var rule = ConditionalAccessRule()
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, !pair[1].isEmpty else { throw invalidRule(text) }
            switch pair[0] {
            case "scope": rule.scopes.append(pair[1])
            case "client": rule.clients.append(pair[1])
            case "max-age":
                guard let seconds = seconds(pair[1]) else { throw invalidRule(text) }
                rule.maxAgeSeconds = seconds
            default: throw invalidRule(text)
            }
        }
        guard !rule.scopes.isEmpty || !rule.clients.isEmpty else { throw invalidRule(text) }
        return rule
    }

    /// A line per setting, for the commands' output.
    static func describe(_ settings: MFASettings) -> [String] {
        var lines = [
            "mfa: \(settings.policy.rawValue)",
            "mfa sign-in e-mail as method: \(settings.signInEmailIsMethod ? "on" : "off")",
            "mfa channels: \(settings.channels.map(\.rawValue).joined(separator: ","))",
        ]
        if !settings.blockedContacts.isEmpty { lines.append("mfa blocked: \(settings.blockedContacts.joined(separator: " "))") }
        for rule in settings.rules {
            let parts =
                rule.scopes.map { "scope=\($0)" } + rule.clients.map { "client=\($0)" } + ["max-age=\(rule.maxAgeSeconds)"]
            lines.append("mfa rule: \(parts.joined(separator: ","))")
        }
        return lines
    }

    private static func invalidRule(_ text: String) -> UsageError {
        UsageError(
            "option '--mfa-rule' expects scope=S, client=C and max-age=AGE separated by commas, with at least one "
                + "scope or client, not '\(text)'")
    }

    private static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        let value: Int?
        if let last = text.last, let size = units[last] {
            value = Int(text.dropLast()).map { $0 * size }
        } else {
            value = Int(text)
        }
        guard let value, (0...(365 * 86_400)).contains(value) else { return nil }
        return value
    }
}
