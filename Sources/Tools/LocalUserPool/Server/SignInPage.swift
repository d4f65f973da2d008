import Foundation
import LosslessJSON

/// The sign-in page (`Page/` in this module's resources: HTML, CSS and plain JavaScript modules, no build step),
/// served at `/` and `/page/NAME`, and `/page/pool.json` with the ids the page needs and the HTTP API's URL. Every
/// page answer carries a strict Content-Security-Policy (scripts and styles from this origin only, no inline code;
/// the CAPTCHA providers' widget hosts allowed; calls to this origin, the HTTP API and the widget hosts) and
/// `Referrer-Policy: no-referrer`, so a sign-in link's token never leaves the page.
enum SignInPage {
    /// The files served, by name, with their content types.
    static let files: [String: String] = [
        "index.html": "text/html; charset=utf-8",
        "style.css": "text/css; charset=utf-8",
        "app.js": "text/javascript; charset=utf-8",
        "cognito.js": "text/javascript; charset=utf-8",
        "srp.js": "text/javascript; charset=utf-8",
        "captcha.js": "text/javascript; charset=utf-8",
        "passkeys.js": "text/javascript; charset=utf-8",
    ]

    /// Hosts of the CAPTCHA providers' widgets (Turnstile, reCAPTCHA, hCaptcha).
    private static let widgetHosts =
        "https://challenges.cloudflare.com https://www.google.com https://www.gstatic.com https://hcaptcha.com https://*.hcaptcha.com"

    /// The policy of every page answer; `apiOrigin`, the HTTP API's origin, is the one other place the page may call.
    static func contentSecurityPolicy(apiOrigin: String?) -> String {
        [
            "default-src 'none'",
            "script-src 'self' \(widgetHosts)",
            "style-src 'self' https://hcaptcha.com https://*.hcaptcha.com",
            "img-src 'self' data: https:",
            "connect-src 'self' \(apiOrigin.map { "\($0) " } ?? "")\(widgetHosts)",
            "frame-src \(widgetHosts)",
            "form-action 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    static func securityHeaders(apiOrigin: String?) -> [(String, String)] {
        [
            ("Content-Security-Policy", contentSecurityPolicy(apiOrigin: apiOrigin)), ("Referrer-Policy", "no-referrer"),
            ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-store"),
        ]
    }

    /// The answer for `GET path`, or nil when the path is not the page's.
    /// - Parameter apiURL: where the HTTP API with the passkey routes listens (`http://host:port`), once it does;
    ///   `pool.json` gives it to the page as `apiUrl`, and the policy lets the page call it.
    static func answer(path: String, settings: PoolSettings, apiURL: String?) -> PoolHTTPAnswer? {
        let apiOrigin = apiURL.flatMap(CrossOriginPolicy.normalized)
        let headers = securityHeaders(apiOrigin: apiOrigin)
        let name: String
        switch path {
        case "/", "/index.html": name = "index.html"
        case "/page/pool.json":
            let config = JSONValue.object(JSONObject([
                ("userPoolId", .string(settings.userPoolId)), ("clientId", .string(settings.clientId)),
                ("region", .string(settings.region)), ("apiUrl", apiURL.map(JSONValue.string) ?? .null),
            ]))
            return PoolHTTPAnswer(status: 200, headers: [("Content-Type", "application/json")] + headers, body: config.serialized())
        case let page where page.hasPrefix("/page/"): name = String(page.dropFirst("/page/".count))
        default: return nil
        }
        guard let contentType = files[name], let body = contents(of: name) else { return nil }
        return PoolHTTPAnswer(status: 200, headers: [("Content-Type", contentType)] + headers, body: body)
    }

    /// A page file's bytes, from the module's resource bundle.
    private static func contents(of name: String) -> [UInt8]? {
        guard let url = Bundle.module.resourceURL?.appendingPathComponent("Page").appendingPathComponent(name),
              let data = try? Data(contentsOf: url)
        else { return nil }
        return Array(data)
    }
}
