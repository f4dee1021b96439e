/// Text from the store made safe for a terminal: control and format characters (escape sequences,
/// bidirectional overrides) are shown as `\u{…}`, so a stored value cannot rewrite what an operator
/// sees. Values Latch itself validates never contain them; older rows or imports might.
enum TerminalText {
    static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                output += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
