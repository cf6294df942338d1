package com.sandboxgateway.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionOperations;

class GroupCommitTest {

    private final AtomicInteger transactions = new AtomicInteger();
    private final List<List<String>> groups = Collections.synchronizedList(new ArrayList<>());
    private final ThreadLocal<List<String>> current = new ThreadLocal<>();
    private final GroupCommit commits = new GroupCommit(new TransactionOperations() {
        @Override
        public <T> T execute(TransactionCallback<T> action) throws TransactionException {
            transactions.incrementAndGet();
            List<String> group = new ArrayList<>();
            current.set(group);
            try {
                return action.doInTransaction(null);
            } finally {
                groups.add(group);
            }
        }
    });

    @Test
    void shouldCommitTheWritesOfCallersThatWaitedTogetherInOneTransaction() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread first = Thread.ofPlatform().start(() -> commits.commit(List.of(() -> {
            note("first");
            holding.countDown();
            await(release);
            return true;
        })));
        holding.await();
        List<Boolean> secondOutcome = new ArrayList<>();
        Thread second = Thread.ofPlatform().start(() -> secondOutcome.addAll(commits.commit(List.of(() -> note("second a"),
                () -> !note("second b")))));
        Thread third = Thread.ofPlatform().start(() -> commits.commit(List.of(() -> note("third"))));
        waitUntilBlocked(second);
        waitUntilBlocked(third);

        release.countDown();
        for (Thread thread : List.of(first, second, third)) {
            thread.join();
        }

        assertThat(transactions).hasValue(2);
        assertThat(groups.get(0)).containsExactly("first");
        assertThat(groups.get(1)).containsExactlyInAnyOrder("second a", "second b", "third");
        assertThat(secondOutcome).containsExactly(true, false);
    }

    private boolean note(String write) {
        current.get().add(write);
        return true;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Until the thread parks on the commit lock the first caller holds (it has queued its writes by then). */
    private static void waitUntilBlocked(Thread thread) throws InterruptedException {
        while (thread.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
    }
}
