package com.sandboxgateway.review;

import java.util.List;

/**
 * A code block as the sandbox runs it: the Python tokens, plus what IPython handles before Python
 * sees it — shell commands ({@code !cmd}, {@code %%bash} cells, {@code %sx}, {@code %system}), line and
 * cell magics ({@code %pip install x}), and the paths magics write or run ({@code %%writefile p}).
 */
record PythonSource(List<PythonToken> tokens, List<String> shellCommands, List<String> magics, List<String> magicPaths) {

    PythonSource {
        tokens = List.copyOf(tokens);
        shellCommands = List.copyOf(shellCommands);
        magics = List.copyOf(magics);
        magicPaths = List.copyOf(magicPaths);
    }
}
