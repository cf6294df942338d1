package com.sandboxgateway.openai;

/** The kinds of output item the gateway tells apart; every other type is {@link #OTHER}. */
public enum ItemKind {

    /** Code the sandbox ran ({@code code_interpreter_call}): a turn. */
    CODE_INTERPRETER_CALL("code_interpreter_call"),
    /** A command the hosted shell ran ({@code shell_call}, the spec's {@code FunctionShellCall}). */
    SHELL_CALL("shell_call"),
    /** What a shell command printed ({@code shell_call_output}, the spec's {@code FunctionShellCallOutput}). */
    SHELL_CALL_OUTPUT("shell_call_output"),
    /** A message; its content may cite container files. */
    MESSAGE("message"),
    OTHER(null);

    private final String type;

    ItemKind(String type) {
        this.type = type;
    }

    /** Whether an item of this kind is a turn: one code block or one shell call executed in a container. */
    public boolean turn() {
        return this == CODE_INTERPRETER_CALL || this == SHELL_CALL;
    }

    /** The item's {@code type} on the wire; {@code null} for {@link #OTHER}. */
    public String type() {
        return type;
    }

    public static ItemKind of(String type) {
        for (ItemKind kind : values()) {
            if (kind.type != null && kind.type.equals(type)) {
                return kind;
            }
        }
        return OTHER;
    }
}
