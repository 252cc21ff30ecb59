/**
 * The desk's events: what happened to incidents and replay jobs. They stay together, apart from the commands and values
 * grouped by feature beside them, because a class's name here is its type wherever it is kept: the event store, the
 * events topic other services read, and the parked-event table. Moving or renaming one needs an upcaster and a note to
 * those services ({@code StoredTypeNamesTest} fails first).
 */
package io.dlqdesk.domain.api;
