package com.sandboxgateway.sanitize;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.review.InjectionMatch;

/**
 * Checks the text of one file, value by value, for instructions aimed at a model, and keeps where they
 * were found (the first {@value #KEPT}, and how many in all). Under a blocking policy the first one
 * refuses the file. One instance per file.
 */
public final class InstructionCheck {

    static final int KEPT = 20;

    private final InjectionScreening screening;
    private final String team;
    private final List<PlantedInstruction> kept = new ArrayList<>();
    private long total;

    InstructionCheck(InjectionScreening screening, String team) {
        this.screening = screening;
        this.team = team;
    }

    /**
     * @throws GatewayException {@code instruction_in_data} naming line and column when the policy blocks
     */
    void check(CharSequence text, long line, int column) {
        Optional<InjectionMatch> match = screening.detector().find(text);
        if (match.isEmpty()) {
            return;
        }
        PlantedInstruction found = new PlantedInstruction(match.get().ruleId(), match.get().category(), line, column);
        screening.counted(found, team);
        if (screening.blocks()) {
            throw new GatewayException(ErrorCode.INSTRUCTION_IN_DATA, "Line " + line + (column > 0 ? ", column " + column : "")
                    + " of the file holds text that reads like an instruction to the model (" + found.category() + ", rule "
                    + found.ruleId() + "). Remove it from the data and upload the file again.");
        }
        total++;
        if (kept.size() < KEPT) {
            kept.add(found);
        }
    }

    /** The first findings, in file order. */
    public List<PlantedInstruction> found() {
        return List.copyOf(kept);
    }

    /** How many values matched in all. */
    public long total() {
        return total;
    }

    /** The {@code X-Gateway-Flags} value: the first finding and the count, or {@code null} when none. */
    public String header() {
        if (kept.isEmpty()) {
            return null;
        }
        return InjectionScreening.FLAG + "=" + kept.getFirst().where() + (total > 1 ? "; more=" + (total - 1) : "");
    }
}
