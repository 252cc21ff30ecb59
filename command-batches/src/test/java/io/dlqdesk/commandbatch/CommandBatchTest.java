package io.dlqdesk.commandbatch;

import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandBatchTest {

    private final CommandBatch batch = new CommandBatch(NoTransactionManager.INSTANCE);
    private final List<String> fellBack = new ArrayList<>();
    private final List<String> alone = new ArrayList<>();

    @Test
    void severalItemsAreSentInOneUnitAndNoneAlone() {
        List<Object> units = new ArrayList<>();

        List<String> answers = batch.togetherElseOneByOne(List.of("a", "b", "c"), item -> {
            units.add(CurrentUnitOfWork.get());
            return item.toUpperCase();
        }, e -> fellBack.add(e.getMessage()), this::alone);

        assertThat(answers).containsExactly("A", "B", "C");
        assertThat(units).hasSize(3).containsOnly(units.get(0));
        assertThat(fellBack).isEmpty();
        assertThat(alone).isEmpty();
    }

    @Test
    void aUnitThatFailsAsAWholeIsSentOneByOne() {
        List<String> answers = batch.togetherElseOneByOne(List.of("a", "b"), item -> {
            if (item.equals("b")) {
                throw new IllegalStateException("conflict");
            }
            return item;
        }, e -> fellBack.add(e.getMessage()), this::alone);

        assertThat(answers).containsExactly("alone a", "alone b");
        assertThat(fellBack).containsExactly("conflict");
    }

    @Test
    void oneItemIsSentAloneWithoutATry() {
        List<String> answers = batch.togetherElseOneByOne(List.of("a"), item -> "together " + item, e -> fellBack.add(e.getMessage()),
                this::alone);

        assertThat(answers).containsExactly("alone a");
        assertThat(fellBack).isEmpty();
    }

    @Test
    void eachInItsOwnUnitAnswersAFailedUnitWithItsFailure() {
        List<String> answers = batch.togetherElseOneByOne(List.of("a", "b"), item -> {
            throw new IllegalStateException("refused " + item);
        }, e -> fellBack.add(e.getMessage()), batch.inItsOwnUnit(item -> {
            if (item.equals("b")) {
                throw new IllegalStateException("refused b alone");
            }
            return item;
        }, RuntimeException::getMessage));

        assertThat(answers).containsExactly("a", "refused b alone");
    }

    @Test
    void whatRolledTheUnitBackIsThrownAsItWas() {
        assertThatThrownBy(() -> batch.inOneUnit(() -> {
            throw new IOException("disk");
        })).isInstanceOf(IOException.class).hasMessage("disk");
    }

    private String alone(String item) {
        alone.add(item);
        return "alone " + item;
    }
}
