import Foundation

/// The sign-in page (`Page/` in this module's resources: HTML, CSS and plain JavaScript modules, no build step),
/// served at `/` and `/page/NAME`, and `/page/pool.json` with the ids the page needs. Every page answer carries a
/// strict Content-Security-Policy (scripts and styles from this origin only, no inline code; the CAPTCHA providers'
/// widget hosts allowed) and `Referrer-Policy: no-referrer`, so a sign-in link's token never leaves the page.
enum SignInPage {
    /// The files served, by name, with their content types.
    static let files: [String: String] = [
        "index.html": "text/html; charset=utf-8",
        "style.css": "text/css; charset=utf-8",
        "app.js": "text/javascript; charset=utf-8",
        "cognito.js": "text/javascript; charset=utf-8",
        "srp.js": "text/javascript; charset=utf-8",
        "captcha.js": "text/javascript; charset=utf-8",
    ]

    /// Hosts of the CAPTCHA providers' widgets (Turnstile, reCAPTCHA, hCaptcha).
    private static let widgetHosts =
        "https://challenges.cloudflare.com https://www.google.com https://www.gstatic.com https://hcaptcha.com https://*.hcaptcha.com"

    static let contentSecurityPolicy = [
        "default-src 'none'",
        "script-src 'self' \(widgetHosts)",
        "style-src 'self' https://hcaptcha.com https://*.hcaptcha.com",
        "img-src 'self' data: https:",
        "connect-src 'self' \(widgetHosts)",
        "frame-src \(widgetHosts)",
        "form-action 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static let securityHeaders = [
        ("Content-Security-Policy", contentSecurityPolicy), ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-store"),
    ]

    /// The answer for `GET path`, or nil when the path is not the page's.
    static func answer(path: String, settings: PoolSettings) -> PoolHTTPAnswer? {
        let name: String
        switch path {
        case "/", "/index.html": name = "index.html"
        case "/page/pool.json":
            let config = "{\"userPoolId\":\"\(settings.userPoolId)\",\"clientId\":\"\(settings.clientId)\",\"region\":\"\(settings.region)\"}"
            return PoolHTTPAnswer(status: 200, headers: [("Content-Type", "application/json")] + securityHeaders, body: Array(config.utf8))
        case let page where page.hasPrefix("/page/"): name = String(page.dropFirst("/page/".count))
        default: return nil
        }
        guard let contentType = files[name], let body = contents(of: name) else { return nil }
        return PoolHTTPAnswer(status: 200, headers: [("Content-Type", contentType)] + securityHeaders, body: body)
    }

    /// A page file's bytes, from the module's resource bundle.
    private static func contents(of name: String) -> [UInt8]? {
        guard let url = Bundle.module.resourceURL?.appendingPathComponent("Page").appendingPathComponent(name),
              let data = try? Data(contentsOf: url)
        else { return nil }
        return Array(data)
    }
}
