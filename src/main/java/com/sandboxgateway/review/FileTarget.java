package com.sandboxgateway.review;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a literal path argument leads, relative to the directories code may use. Paths are normalized
 * the way the kernel would ({@code /mnt/data/../../etc} is {@code /etc}); only the first directory is
 * reported, so a user name or file name further down never reaches the audit.
 */
final class FileTarget {

    /** {@code ~user} or {@code ~user/...}: another user's home. */
    private static final Pattern OTHER_HOME = Pattern.compile("~[a-zA-Z0-9_.-]+(/.*)?");

    private FileTarget() {
    }

    /**
     * The first directory of {@code path} when it leaves {@code insideOf}: {@code /etc} for
     * {@code /etc/shadow}, {@code ~} for a home path, {@code ..} for a relative path climbing out of
     * the working directory; {@code null} when it stays inside, is relative, or is no path at all.
     */
    static String outside(String path, List<String> insideOf) {
        String text = path.strip();
        if (text.isEmpty() || text.contains("://")) {
            return null;
        }
        if (text.startsWith("~") && (text.equals("~") || text.startsWith("~/") || OTHER_HOME.matcher(text).matches())) {
            return "~";
        }
        boolean absolute = text.startsWith("/");
        if (absolute && !text.contains("//") && !text.contains("/.") && !text.endsWith("/")) {
            // Already normal (no empty, "." or ".." segment), as nearly every path in code is: nothing to split.
            int slash = text.indexOf('/', 1);
            return inside(text, insideOf) ? null : slash < 0 ? text : text.substring(0, slash);
        }
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : text.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (segments.isEmpty() || segments.peekLast().equals("..")) {
                    if (!absolute) {
                        segments.addLast("..");
                    }
                } else {
                    segments.removeLast();
                }
            } else {
                segments.addLast(segment);
            }
        }
        if (!absolute) {
            return !segments.isEmpty() && segments.peekFirst().equals("..") ? ".." : null;
        }
        if (inside("/" + String.join("/", segments), insideOf)) {
            return null;
        }
        return segments.isEmpty() ? "/" : "/" + segments.peekFirst();
    }

    /** Whether the normalized absolute path lies in one of {@code insideOf}. */
    private static boolean inside(String normalized, List<String> insideOf) {
        for (String directory : insideOf) {
            String root = directory.endsWith("/") && directory.length() > 1 ? directory.substring(0, directory.length() - 1) : directory;
            if (normalized.startsWith(root) && (normalized.length() == root.length() || root.equals("/")
                    || normalized.charAt(root.length()) == '/')) {
                return true;
            }
        }
        return false;
    }
}
