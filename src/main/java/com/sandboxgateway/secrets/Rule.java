package com.sandboxgateway.secrets;

import java.util.List;

/**
 * One detector. The scanner first asks its {@link #triggers()} whether a text could hold a finding at
 * all (one shared pass over the characters answers that for every rule), and only then runs
 * {@link #findAll}, which must take time linear in the text's length whatever the text is.
 */
interface Rule {

    /** The stable id findings carry, e.g. {@code aws-access-key-id}. */
    String id();

    Finding.Kind kind();

    /** Cheap conditions, one of which holds for every text {@link #findAll} finds something in. */
    List<Trigger> triggers();

    /**
     * Adds every finding of this rule in {@code text} to {@code found} with {@link Findings#add}.
     *
     * @param found the findings of earlier rules, {@code null} while there are none
     * @return the findings so far, still {@code null} if there are none
     */
    Findings findAll(String text, Findings found);

    default Finding finding(int start, int end) {
        return new Finding(id(), kind(), start, end);
    }
}
