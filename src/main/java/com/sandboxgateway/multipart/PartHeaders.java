package com.sandboxgateway.multipart;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The headers of one multipart part, kept as received (so they can be re-emitted unchanged) with the
 * fields the gateway reads from them.
 *
 * @param raw the header block without its terminating blank line
 * @param name the form field name from {@code Content-Disposition}
 * @param filename the file name, or {@code null} for a plain field
 * @param contentType the part's {@code Content-Type}, or {@code null}
 */
public record PartHeaders(byte[] raw, String name, String filename, String contentType) {

    private static final Pattern NAME = Pattern.compile("(?i);\\s*name\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^;\\s]+))");
    private static final Pattern FILENAME = Pattern.compile("(?i);\\s*filename\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^;\\s]+))");

    /** Whether this part carries a file rather than a plain form value. */
    public boolean isFile() {
        return filename != null;
    }

    static PartHeaders parse(byte[] raw) {
        String name = null;
        String filename = null;
        String contentType = null;
        for (String line : new String(raw, java.nio.charset.StandardCharsets.UTF_8).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String header = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            if (header.equals("content-disposition")) {
                name = parameter(NAME, value);
                filename = parameter(FILENAME, value);
            } else if (header.equals("content-type")) {
                contentType = value;
            }
        }
        return new PartHeaders(raw, name, filename, contentType);
    }

    private static String parameter(Pattern pattern, String disposition) {
        Matcher matcher = pattern.matcher(disposition);
        if (!matcher.find()) {
            return null;
        }
        return matcher.group(1) != null ? matcher.group(1).replaceAll("\\\\(.)", "$1") : matcher.group(2);
    }
}
