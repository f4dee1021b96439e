import Foundation
import Latch

/// `latch signin --browser [--browser-command CMD] [--email E] [--scope S]...`: signs in with the
/// authorization code flow and PKCE in the system browser, the redirect coming back to a one-shot
/// loopback listener on `127.0.0.1` (RFC 8252 § 7.3). Also the fallback of `latch token` when the
/// session needs the user and a person is at the terminal.
struct BrowserSignInCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Runs the sign-in and prints the result.
    func run() async throws {
        let result = try await signIn(
            LatchInteractiveParameters(scopes: context.options.scopes, loginHint: context.options.email))
        context.output.signedIn(SignInSteps.Outcome(result: result), flow: "browser")
    }

    /// Signs in with `parameters` in the browser `--browser-command` names (else `BROWSER`, else
    /// `xdg-open`), printing the URL too, for a browser that does not open.
    func signIn(_ parameters: LatchInteractiveParameters) async throws -> LatchTokenResult {
        var parameters = parameters
        parameters.browser = AnnouncingBrowser(
            browser: LatchSystemBrowser(command: context.options.browserCommand.map(Self.words)))
        return try await context.client.acquireToken(parameters: parameters)
    }

    /// A command line split into words at white space (no shell quoting).
    static func words(_ command: String) -> [String] {
        command.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

/// The system browser, after a line on standard error with the URL it opens.
struct AnnouncingBrowser: LatchWebBrowser {
    let browser: LatchSystemBrowser

    var redirectURI: URL? { browser.redirectURI }

    func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome {
        FileHandle.standardError.write(
            Data("Opening the sign-in page in the browser. If it does not open, visit:\n\(url.absoluteString)\n".utf8))
        return try await browser.open(url, redirectURI: redirectURI)
    }
}

/// `latch signin --device [--scope S]...`: the device authorization grant (RFC 8628). Prints the
/// verification page and the code on standard error (at a terminal also a QR code of the page with
/// the code filled in, for a phone), then waits for the approval.
struct DeviceSignInCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Runs the sign-in and prints the result.
    func run() async throws {
        let terminal = context.prompter.isTerminal
        let result = try await context.client.acquireTokenWithDeviceCode(
            scopes: context.options.scopes, correlationID: nil
        ) { code in
            var text = "To sign in, open \(code.verificationURI.absoluteString) and enter the code \(code.userCode)\n"
            if let complete = code.verificationURIComplete {
                text += "(or open \(complete.absoluteString))\n"
                if terminal, let code = TerminalQRCode.render(complete.absoluteString) { text += code }
            }
            text += "Waiting for the sign-in to be approved...\n"
            FileHandle.standardError.write(Data(text.utf8))
        }
        context.output.signedIn(SignInSteps.Outcome(result: result), flow: "device")
    }
}
