package com.sandboxgateway.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/** Escaping for the console's pages: every value from a record or a request goes through here. */
final class Html {

    private Html() {
    }

    /** Text safe in element content and in quoted attribute values. */
    static String esc(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /** A query string of the non-empty parameters, escaped for an {@code href}. */
    static String query(Map<String, String> parameters) {
        String query = parameters.entrySet().stream()
                .filter(parameter -> parameter.getValue() != null && !parameter.getValue().isEmpty())
                .map(parameter -> encode(parameter.getKey()) + "=" + encode(parameter.getValue()))
                .collect(Collectors.joining("&"));
        return query.isEmpty() ? "" : "?" + esc(query);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
