package com.sandboxgateway.console;

import static com.sandboxgateway.console.Html.esc;

import java.nio.charset.StandardCharsets;

import org.springframework.http.MediaType;

/** The frame every console page shares: landmarks, skip link, navigation and the signed-in admin. */
final class Layout {

    static final String BASE = "/console";
    static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);

    private Layout() {
    }

    /** A page of the signed-in console; {@code body} is already escaped HTML. */
    static String page(String title, ConsoleUser user, String body) {
        String logout = user.csrfToken() == null ? "" : """
                <form method="post" action="%s/logout" class="inline"><input type="hidden" name="%s" value="%s">\
                <button type="submit">Log out</button></form>""".formatted(BASE, ConsoleAccess.CSRF_FIELD, esc(user.csrfToken()));
        String header = """
                <header><nav aria-label="Console"><ul>
                <li><a href="%1$s">Review queue</a></li><li><a href="%1$s/search">Search</a></li>\
                <li><a href="%1$s/verify">Chain check</a></li></ul></nav>
                <p class="who">Signed in as <strong>%2$s</strong> (%3$s) %4$s</p></header>
                """.formatted(BASE, esc(user.principal().user()), esc(user.principal().team()), logout);
        return document(title, header + "<main id=\"main\" tabindex=\"-1\">\n<h1>" + esc(title) + "</h1>\n" + body + "</main>\n");
    }

    /** A page without the console's navigation: the login form and refusals. */
    static String bare(String title, String body) {
        return document(title, "<main id=\"main\" tabindex=\"-1\">\n<h1>" + esc(title) + "</h1>\n" + body + "</main>\n");
    }

    /** Why a request was refused and what to do next. */
    static String refusal(String title, String message) {
        return bare(title, "<p role=\"alert\">" + esc(message) + "</p>\n<p><a href=\"" + BASE + "/login\">Log in</a></p>\n");
    }

    private static String document(String title, String content) {
        return """
                <!DOCTYPE html>
                <html lang="en">
                <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
                <title>%s · Sandbox Gateway review</title><link rel="stylesheet" href="%s/console.css"></head>
                <body><a class="skip" href="#main">Skip to content</a>
                %s</body>
                </html>
                """.formatted(esc(title), BASE, content);
    }
}
