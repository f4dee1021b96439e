import Foundation
import Latch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the user for input. On a terminal it writes the prompt to standard error and reads the
/// answer (passwords without echo); when standard input is not a terminal every prompt silently
/// reads its answer as one line from standard input, in order. Presets (`--email`, `LATCH_EMAIL`,
/// `--password-stdin`, `LATCH_PASSWORD`, `LATCH_CODE`, `LATCH_MFA_CODE`, `LATCH_REGISTRATION_CODE`)
/// answer a prompt without asking.
struct Prompter: Sendable {
    /// One answer and whether a person typed it at a terminal (then a rejected answer may be asked again).
    struct Answer: Sendable {
        /// The text.
        let value: String
        /// Whether it was typed at a terminal prompt.
        let interactive: Bool
    }

    /// Whether standard input is a terminal.
    let isTerminal: Bool
    private let passwordFromStandardInput: Bool
    private let environment: [String: String]

    /// Creates a prompter for `options` and `environment`.
    init(options: CommandLineOptions, environment: [String: String]) {
        isTerminal = isatty(STDIN_FILENO) == 1
        passwordFromStandardInput = options.passwordFromStandardInput
        self.environment = environment
    }

    /// The e-mail address: `preset` (from `--email`), `LATCH_EMAIL`, or a prompt.
    func email(preset: String?) throws -> Answer {
        if let preset = preset ?? nonEmpty("LATCH_EMAIL") { return Answer(value: preset, interactive: false) }
        return try ask("E-mail", what: "e-mail address", trimming: true)
    }

    /// A password: one line of standard input with `--password-stdin`, `LATCH_PASSWORD`, or a
    /// prompt without echo. On a terminal, `confirm` asks twice and insists that both match.
    func password(_ label: String = "Password", confirm: Bool = false) throws -> Answer {
        if passwordFromStandardInput {
            return Answer(value: try readAnswer(what: "password", trimming: false), interactive: false)
        }
        if let preset = nonEmpty("LATCH_PASSWORD") { return Answer(value: preset, interactive: false) }
        guard isTerminal else { return try ask(label, what: "password", trimming: false) }
        for _ in 0..<3 {
            let first = try hidden(label)
            guard confirm else { return first }
            let second = try hidden("Repeat \(label.lowercased())")
            if first.value == second.value { return first }
            note("The passwords do not match; try again.")
        }
        throw LatchError(code: .missingInput, message: "The passwords did not match.")
    }

    /// A one-time code: `LATCH_CODE` or a prompt.
    func code(sentTo: String) throws -> Answer {
        try code(sentTo: sentTo, preset: "LATCH_CODE")
    }

    /// A second-factor code: `LATCH_MFA_CODE` or a prompt.
    func mfaCode(sentTo: String) throws -> Answer {
        try code(sentTo: sentTo, preset: "LATCH_MFA_CODE")
    }

    /// The code that verifies a strong method being registered: `LATCH_REGISTRATION_CODE` or a prompt.
    func registrationCode(sentTo: String) throws -> Answer {
        try code(sentTo: sentTo, preset: "LATCH_REGISTRATION_CODE")
    }

    /// One of `items` (at least one), chosen at the terminal from a numbered list under `heading`:
    /// an empty answer takes the first, a number its item, and any other answer the item `match`
    /// finds for it. A wrong answer is asked again, up to three times.
    /// - Throws: ``LatchError/Code/missingInput`` when no answer chose an item, or input ended.
    func choice(_ heading: String, _ items: [String], match: (String) -> Int?) throws -> Int {
        note(heading)
        for (number, item) in items.enumerated() { note("  \(number + 1)) \(item)") }
        for _ in 0..<3 {
            let answer = try ask("Choice [1]", what: "choice", trimming: true).value
            if answer.isEmpty { return 0 }
            if let number = Int(answer), items.indices.contains(number - 1) { return number - 1 }
            if let index = match(answer), items.indices.contains(index) { return index }
            note("Answer a number from 1 to \(items.count).")
        }
        throw LatchError(code: .missingInput, message: "No choice was made.")
    }

    /// The sign-in link of an e-mail-link sign-in: `LATCH_EMAIL_LINK` or a prompt.
    func emailLink(sentTo: String) throws -> Answer {
        if let preset = nonEmpty("LATCH_EMAIL_LINK") { return Answer(value: preset, interactive: false) }
        note("A sign-in link was sent to \(sentTo); paste it here.")
        return try ask("Link", what: "sign-in link", trimming: true)
    }

    /// The link or code of a verification e-mail: `LATCH_CODE` or a prompt; an empty answer
    /// means "later".
    func verificationLink(sentTo: String) throws -> Answer {
        if let preset = nonEmpty("LATCH_CODE") { return Answer(value: preset, interactive: false) }
        note("A verification e-mail was sent to \(sentTo); paste its link or code, or press Return to finish later.")
        return try ask("Link or code", what: "verification link", trimming: true)
    }

    /// A free-text answer such as a sign-up attribute.
    func text(_ label: String) throws -> Answer {
        try ask(label, what: label, trimming: true)
    }

    /// Writes an informational line to standard error when a person is at the terminal.
    func note(_ message: String) {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    private func code(sentTo: String, preset name: String) throws -> Answer {
        if let preset = nonEmpty(name) { return Answer(value: preset, interactive: false) }
        if isTerminal, !sentTo.isEmpty { note("A code was sent to \(sentTo).") }
        return try ask("Code", what: "code", trimming: true)
    }

    private func nonEmpty(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    private func ask(_ label: String, what: String, trimming: Bool) throws -> Answer {
        if isTerminal { FileHandle.standardError.write(Data("\(label): ".utf8)) }
        return Answer(value: try readAnswer(what: what, trimming: trimming), interactive: isTerminal)
    }

    private func hidden(_ label: String) throws -> Answer {
        FileHandle.standardError.write(Data("\(label): ".utf8))
        let line = TerminalEcho.withEchoDisabled { readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data("\n".utf8))
        guard let line else { throw Self.ended("password") }
        return Answer(value: Self.stripCarriageReturn(line), interactive: true)
    }

    private func readAnswer(what: String, trimming: Bool) throws -> String {
        guard let line = readLine(strippingNewline: true) else { throw Self.ended(what) }
        let value = Self.stripCarriageReturn(line)
        return trimming ? value.trimmingCharacters(in: .whitespaces) : value
    }

    private static func stripCarriageReturn(_ line: String) -> String {
        line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    private static func ended(_ what: String) -> LatchError {
        LatchError(code: .missingInput, message: "No \(what) was given: standard input ended.")
    }
}
