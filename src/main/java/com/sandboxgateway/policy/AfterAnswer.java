package com.sandboxgateway.policy;

import com.sandboxgateway.openai.Answer;

/**
 * A call to the upstream the gateway makes because of an answer (reading further list pages, deleting
 * the files a finished response used). Runs after every inspector saw the answer and before the client
 * gets it, in the order of the chain table.
 */
@FunctionalInterface
public interface AfterAnswer {

    /**
     * @return the answer to relay: {@code answer} itself, or {@link Answer#replacedBy} a body made from it
     */
    Answer follow(Exchange exchange, Answer answer);
}
