package com.sandboxgateway.config;

import java.lang.Character.UnicodeScript;
import java.net.IDN;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import com.sandboxgateway.api.InvalidSettingException;

/**
 * A host name as network policies compare it: trimmed, fullwidth and ideographic dots folded, IDN
 * labels in punycode, lower case, no trailing dot. Anything that is not a plain host name (a scheme,
 * port, path, user info, backslash, percent-encoding, an IP address in any notation, an over-long
 * label or name, a label mixing scripts) is refused with the reason, never guessed at.
 *
 * @param ascii the normalized name, e.g. {@code pypi.org}, {@code *.example.com}, {@code xn--bcher-kva.example}
 */
public record DomainName(String ascii) {

    private static final Pattern LABEL = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern NUMERIC = Pattern.compile("(?i)(0x[0-9a-f]*|[0-9]+)");

    /**
     * The normalized names of the allowlist set under {@code key} (duplicates dropped), or the
     * {@link InvalidSettingException} that stops the start, naming the entry that is not a host name.
     */
    public static List<DomainName> parseAll(List<String> entries, String key) {
        Set<DomainName> domains = new LinkedHashSet<>();
        for (String entry : entries) {
            try {
                domains.add(parse(entry));
            } catch (IllegalArgumentException e) {
                throw new InvalidSettingException(key, entry, "the entry " + e.getMessage(),
                        "Write a bare host name such as pypi.org, or *.example.com for its subdomains.");
            }
        }
        return List.copyOf(domains);
    }

    /** The normalized name, or an {@link IllegalArgumentException} saying why the entry is not a host name. */
    public static DomainName parse(String entry) {
        String name = entry.strip().replace('\u3002', '.').replace('\uFF0E', '.').replace('\uFF61', '.');
        if (name.isEmpty()) {
            throw new IllegalArgumentException("is empty");
        }
        for (String forbidden : new String[] {"://", "/", "\\", "@", "%", ":", "[", "]", "?", "#", " "}) {
            if (name.contains(forbidden)) {
                throw new IllegalArgumentException("is not a bare host name (it contains '" + forbidden + "')");
            }
        }
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        boolean wildcard = name.startsWith("*.");
        String host = wildcard ? name.substring(2) : name;
        if (host.contains("*")) {
            throw new IllegalArgumentException("has a wildcard other than a leading '*.'");
        }
        if (host.length() > 253) {
            throw new IllegalArgumentException("is longer than 253 characters");
        }
        for (String label : host.split("\\.", -1)) {
            if (label.length() > 63) {
                throw new IllegalArgumentException("has a label longer than 63 characters");
            }
            if (mixesScripts(label)) {
                throw new IllegalArgumentException("mixes writing systems in one label (a homograph)");
            }
        }
        String ascii;
        try {
            ascii = IDN.toASCII(host, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not a valid international domain name");
        }
        if (ascii.length() > 253) {
            throw new IllegalArgumentException("is longer than 253 characters");
        }
        String[] labels = ascii.split("\\.", -1);
        if (labels.length < 2 || wildcard && labels.length < 2) {
            throw new IllegalArgumentException("is not a fully qualified domain name");
        }
        for (String label : labels) {
            if (label.length() > 63) {
                throw new IllegalArgumentException("has a label longer than 63 characters");
            }
            if (!LABEL.matcher(label).matches()) {
                throw new IllegalArgumentException("has an invalid label '" + label + "'");
            }
        }
        if (NUMERIC.matcher(labels[labels.length - 1]).matches()) {
            throw new IllegalArgumentException("is an IP address, not a domain name");
        }
        return new DomainName(wildcard ? "*." + ascii : ascii);
    }

    public boolean isWildcard() {
        return ascii.startsWith("*.");
    }

    /** Whether this policy entry admits {@code requested}: the same name, or a subdomain under a wildcard. */
    public boolean admits(DomainName requested) {
        if (ascii.equals(requested.ascii)) {
            return true;
        }
        return isWildcard() && !requested.isWildcard() && requested.ascii.endsWith(ascii.substring(1));
    }

    private static boolean mixesScripts(String label) {
        Set<UnicodeScript> scripts = EnumSet.noneOf(UnicodeScript.class);
        label.codePoints().map(Character::toLowerCase).forEach(c -> {
            UnicodeScript script = UnicodeScript.of(c);
            if (script != UnicodeScript.COMMON && script != UnicodeScript.INHERITED) {
                scripts.add(script);
            }
        });
        return scripts.size() > 1;
    }
}
