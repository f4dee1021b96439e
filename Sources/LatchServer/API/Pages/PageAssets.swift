import Foundation

/// The static files of the hosted pages, served from the pages' own origin so the
/// `Content-Security-Policy` needs no inline style or script: the tenant's style sheet (with its
/// brand colour) and the script that submits a `form_post` response (OAuth 2.0 Form Post
/// Response Mode § 2), which also works without it through its visible button.
enum PageAssets {
    /// The style sheet for `branding`: the accent colour on buttons and links, with white or
    /// black button text, whichever contrasts more (WCAG 2.2 § 1.4.3 relative luminance).
    static func styleSheet(_ branding: Branding) -> String {
        let accent = branding.validColor ?? "#1f5fbf"
        let onAccent = luminance(accent) > 0.179 ? "#000000" : "#ffffff"
        let link = luminance(accent) > 0.4 ? "#1a1a1a" : accent
        return """
            :root { --accent: \(accent); --on-accent: \(onAccent); --link: \(link); }
            * { box-sizing: border-box; }
            body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Hebrew", sans-serif; color: #1a1a1a; background: #f4f5f7; }
            header, main { max-width: 28rem; margin: 0 auto; padding: 1rem 1.5rem; }
            header { padding-top: 2rem; }
            .brand { font-weight: 600; margin: 0; }
            .logo { max-height: 3rem; max-width: 12rem; display: block; margin-bottom: .5rem; }
            main { background: #ffffff; border-radius: .5rem; box-shadow: 0 1px 3px rgba(0,0,0,.15); margin-bottom: 2rem; }
            h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
            .field { margin: 0 0 1rem; }
            label { display: block; font-weight: 600; margin-bottom: .25rem; }
            input[type=text], input[type=email], input[type=password], input[type=tel] { width: 100%; padding: .6rem .7rem; font: inherit; border: 1px solid #6b6b6b; border-radius: .3rem; }
            input[aria-invalid=true] { border-color: #b00020; border-width: 2px; }
            input:focus, button:focus, a:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
            .error, .alert { color: #b00020; margin: .25rem 0 0; }
            .alert { border-inline-start: 4px solid #b00020; padding-inline-start: .75rem; margin-bottom: 1rem; }
            .buttons { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: 1rem; }
            button { font: inherit; padding: .6rem 1.1rem; border-radius: .3rem; border: 2px solid var(--accent); background: var(--accent); color: var(--on-accent); cursor: pointer; }
            button.secondary { background: #ffffff; color: #1a1a1a; }
            a { color: var(--link); }
            .skip { position: absolute; inset-inline-start: -999px; }
            .skip:focus { inset-inline-start: 1rem; top: 1rem; background: #ffffff; padding: .5rem; }
            .code { font: 600 1.5rem/1.2 ui-monospace, monospace; letter-spacing: .15em; }

            """
    }

    /// Submits the first form of a `form_post` page as soon as it loads.
    static let formPostScript = "document.addEventListener('DOMContentLoaded',function(){document.forms[0].submit();});\n"

    /// WCAG relative luminance of a `#rrggbb` colour.
    static func luminance(_ hex: String) -> Double {
        let digits = Array(hex.utf8.dropFirst())
        guard digits.count == 6 else { return 0 }
        func channel(_ index: Int) -> Double {
            let text = String(decoding: digits[index..<index + 2], as: UTF8.self)
            let value = Double(Int(text, radix: 16) ?? 0) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
    }
}
