package com.sandboxgateway.sanitize;

import java.util.Set;

/**
 * The column rules one upload is held to, names already normalized ({@link ColumnNames}).
 *
 * @param profile the dataset profile named by the client, or {@code null}
 * @param required columns the profile requires (empty without a profile)
 */
record SanitizationRules(Set<String> drop, Set<String> pseudonymize, boolean neutralizeFormulas, String profile,
                         Set<String> required) {

    boolean drops(String normalizedColumn) {
        return drop.contains(normalizedColumn);
    }

    /** A dropped column is gone; pseudonymizing it too would be moot. */
    boolean pseudonymizes(String normalizedColumn) {
        return !drops(normalizedColumn) && pseudonymize.contains(normalizedColumn);
    }
}
