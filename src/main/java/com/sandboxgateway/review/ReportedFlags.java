package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.sandboxgateway.secrets.SecretScanner;

/**
 * The flags of one block as they are found, turned into the list the caller gets: details made safe
 * (control characters removed, length capped, credentials redacted by the secret scanner), {@code host=?}
 * dropped for a flag that also names a host, sorted, de-duplicated and capped.
 */
final class ReportedFlags {

    private static final int MAX_DETAIL_LENGTH = 120;

    private final HostPolicy hosts;
    private final Set<CodeFlag> flags = new TreeSet<>();
    private final Set<String> hostFlags = new HashSet<>();

    ReportedFlags(HostPolicy hosts) {
        this.hosts = hosts;
    }

    void add(String flag, String detail) {
        flags.add(new CodeFlag(flag, detail == null ? null : safe(detail)));
    }

    /** A network target: {@code host=<host> allowed=<bool>}, or {@code host=?} when the host is computed. */
    void addHost(String flag, String host) {
        hostFlags.add(flag);
        if (host == null || host.equals(HostTarget.UNKNOWN)) {
            add(flag, "host=" + HostTarget.UNKNOWN);
        } else {
            add(flag, "host=" + host + " allowed=" + hosts.allows(host));
        }
    }

    List<CodeFlag> toList(int maxFlags, int maxDetailsPerFlag) {
        if (flags.isEmpty()) {
            return List.of();
        }
        Set<String> named = new HashSet<>();
        for (CodeFlag flag : flags) {
            if (hostFlags.contains(flag.flag()) && flag.detail() != null && !flag.detail().equals("host=" + HostTarget.UNKNOWN)) {
                named.add(flag.flag());
            }
        }
        List<CodeFlag> list = new ArrayList<>();
        Map<String, Integer> perFlag = new HashMap<>();
        for (CodeFlag flag : flags) {
            if (named.contains(flag.flag()) && ("host=" + HostTarget.UNKNOWN).equals(flag.detail())) {
                continue;
            }
            if (perFlag.merge(flag.flag(), 1, Integer::sum) <= maxDetailsPerFlag && list.size() < maxFlags) {
                list.add(flag);
            }
        }
        return List.copyOf(list);
    }

    private static String safe(String detail) {
        StringBuilder clean = new StringBuilder(Math.min(detail.length(), MAX_DETAIL_LENGTH));
        for (int i = 0; i < detail.length() && clean.length() < MAX_DETAIL_LENGTH; i++) {
            char c = detail.charAt(i);
            clean.append(Character.isISOControl(c) || Character.isSurrogate(c) ? '?' : c);
        }
        return SecretScanner.standard().redact(clean);
    }
}
