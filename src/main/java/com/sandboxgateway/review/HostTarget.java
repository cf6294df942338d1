package com.sandboxgateway.review;

import java.net.IDN;
import java.util.regex.Pattern;

/**
 * The host a string literal points at: {@code https://user:pw@Evil.Example.net:8443/x} is
 * {@code evil.example.net}; a bare {@code api.example.com:443} counts where a call takes a host. Only the
 * host survives: no scheme, user info, port, path or query, which is where tokens and passwords sit.
 */
final class HostTarget {

    /** The host of a URL whose host is not a literal, e.g. {@code f"https://{host}/x"}. */
    static final String UNKNOWN = "?";

    private static final Pattern SCHEME = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]{0,15}");
    private static final Pattern BARE_HOST = Pattern.compile("(?i)([a-z0-9-]{1,63}\\.)+([a-z][a-z0-9-]{1,62}|[0-9]{1,3})(:[0-9]{1,5})?");
    private static final Pattern HOST = Pattern.compile("[a-z0-9.-]{1,253}|\\[[0-9a-f:.]{2,45}\\]");
    private static final Pattern FILE_NAME = Pattern.compile("(?i).*\\.(csv|tsv|txt|json|jsonl|xlsx?|parquet|py|png|jpe?g|pdf|zip|gz|pkl|md|html?)");

    private HostTarget() {
    }

    /** The host of a URL literal, {@link #UNKNOWN} for a URL whose host is computed, {@code null} when it is no URL. */
    static String ofUrl(String literal) {
        String text = literal.strip();
        int scheme = text.indexOf("://");
        if (scheme > 0 && SCHEME.matcher(text.substring(0, scheme)).matches()) {
            return host(text.substring(scheme + 3));
        }
        return text.startsWith("//") ? host(text.substring(2)) : null;
    }

    /** As {@link #ofUrl}, also taking a bare {@code host[:port]}, as socket and connection calls do. */
    static String ofUrlOrHost(String literal) {
        String url = ofUrl(literal);
        if (url != null) {
            return url;
        }
        String text = literal.strip();
        return BARE_HOST.matcher(text).matches() && !FILE_NAME.matcher(text).matches() ? host(text) : null;
    }

    private static String host(String afterScheme) {
        int end = afterScheme.length();
        for (char stop : new char[] {'/', '?', '#', '\\'}) {
            int at = afterScheme.indexOf(stop);
            end = at >= 0 ? Math.min(end, at) : end;
        }
        String authority = afterScheme.substring(0, end);
        String host = authority.substring(authority.lastIndexOf('@') + 1);
        if (!host.startsWith("[")) {
            int colon = host.lastIndexOf(':');
            host = colon >= 0 ? host.substring(0, colon) : host;
        } else if (host.contains("]")) {
            host = host.substring(0, host.indexOf(']') + 1);
        }
        host = host.toLowerCase(java.util.Locale.ROOT);
        while (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        if (host.isEmpty() || host.contains("{")) {
            return UNKNOWN;
        }
        try {
            host = IDN.toASCII(host, IDN.ALLOW_UNASSIGNED).toLowerCase(java.util.Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return UNKNOWN;
        }
        return HOST.matcher(host).matches() ? host : UNKNOWN;
    }
}
