/*
 * coll_forms.h - runs one collective in each of its forms (blocking, nonblocking, persistent)
 * for the tests of every form: a persistent request is made once and started several times,
 * with the buffers refilled between starts, and must be inactive (not MPI_REQUEST_NULL, an
 * empty status at once from MPI_Test) after each completion.
 *
 * Include after p2p_check.h.
 */
#ifndef COMM_TEST_COLL_FORMS_H
#define COMM_TEST_COLL_FORMS_H

enum { F_BLOCK, F_NB, F_PERSIST, NFORMS };
static const char *const form_name[NFORMS] = {"blocking", "nonblocking", "persistent"};

/* How many times a test runs a call in FORM (persistent ones are restarted). */
static inline int form_starts(int form)
{
    return form == F_PERSIST ? 3 : 1;
}

/* Completes REQ, started in FORM; a persistent one stays and answers MPI_Test at once. */
static inline void form_finish(int form, MPI_Request *req)
{
    MPI_Status st;
    int flag = 0;

    if (form == F_BLOCK) {
        return;
    }
    CHECK_MPI(MPI_Wait(req, &st));
    if (form == F_NB) {
        CHECK(*req == MPI_REQUEST_NULL);
        return;
    }
    CHECK(*req != MPI_REQUEST_NULL);
    st.MPI_SOURCE = 12345;
    st.MPI_TAG = 12345;
    CHECK_MPI(MPI_Test(req, &flag, &st));
    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
    CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
    CHECK(*req != MPI_REQUEST_NULL);
}

/* Start K of a call in FORM: the blocking call, the nonblocking one, or (made at the first
 * start) the persistent request, started; then completed. */
#define FORM_RUN(form, k, req, call_b, call_i, call_init)                                          \
    do {                                                                                           \
        if ((form) == F_BLOCK) {                                                                   \
            CHECK_MPI(call_b);                                                                     \
        } else if ((form) == F_NB) {                                                               \
            CHECK_MPI(call_i);                                                                     \
        } else {                                                                                   \
            if ((k) == 0) {                                                                        \
                CHECK_MPI(call_init);                                                              \
            }                                                                                      \
            CHECK_MPI(MPI_Start(&(req)));                                                          \
        }                                                                                          \
        form_finish((form), &(req));                                                               \
    } while (0)

/* After the last start: a persistent request is freed while inactive. */
static inline void form_done(int form, MPI_Request *req)
{
    if (form == F_PERSIST) {
        CHECK_MPI(MPI_Request_free(req));
        CHECK(*req == MPI_REQUEST_NULL);
    }
}

#endif
