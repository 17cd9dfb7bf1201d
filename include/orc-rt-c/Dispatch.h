/*===- orc-rt-c/Dispatch.h - Tasks and the two ready runners ----*- C -*-===*\
|* Part of orc-rt-c. A task is deferred work; a dispatch function decides     *|
|* where it runs. Two runners are supplied: a caller-drained queue and a      *|
|* fixed thread pool.                                                         *|
\*===----------------------------------------------------------------------===*/
/*
 * A task is consumed exactly once: either run (orc_rt_Task_run calls its Run
 * function, then frees it) or destroyed unrun (orc_rt_Task_destroy calls its
 * Cancel function, if any, then frees it). A dispatch function takes ownership
 * of the task it is given and must eventually do one of the two.
 *
 * A task is not managed code: a task that enters JIT'd code must take its own
 * token (orc_rt_Session_callManagedCode, or orc_rt_Session_dispatchManagedCall
 * which does it for you) and abort its work if the token is denied.
 */

#ifndef ORC_RT_C_DISPATCH_H
#define ORC_RT_C_DISPATCH_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Error.h"

#include <stdbool.h>
#include <stddef.h>

ORC_RT_C_EXTERN_C_BEGIN

typedef struct orc_rt_OpaqueTask *orc_rt_TaskRef;

/** Runs a task's work. */
typedef void (*orc_rt_TaskRunFn)(void *Ctx);

/** Releases a task's context when the task is destroyed without running. */
typedef void (*orc_rt_TaskCancelFn)(void *Ctx);

/** Takes ownership of T; must run or destroy it exactly once, on any thread. */
typedef void (*orc_rt_DispatchFn)(orc_rt_TaskRef T, void *Ctx);

/** Creates a task. Cancel may be NULL. Returns NULL if memory is exhausted. */
ORC_RT_C_API orc_rt_TaskRef orc_rt_Task_create(orc_rt_TaskRunFn Run,
                                               orc_rt_TaskCancelFn Cancel,
                                               void *Ctx);

/** Runs T's work on the calling thread, then frees T. */
ORC_RT_C_API void orc_rt_Task_run(orc_rt_TaskRef T);

/** Destroys T without running it (calls its Cancel function, if any). */
ORC_RT_C_API void orc_rt_Task_destroy(orc_rt_TaskRef T);

/*---- Queueing runner: tasks wait in FIFO order until drained ----*/

typedef struct orc_rt_OpaqueTaskQueue *orc_rt_TaskQueueRef;

/** Creates an empty queue. Returns NULL if memory is exhausted. */
ORC_RT_C_API orc_rt_TaskQueueRef orc_rt_TaskQueue_create(void);

/**
 * An orc_rt_DispatchFn: appends T to the queue passed as Ctx. Thread-safe;
 * never blocks for long.
 */
ORC_RT_C_API void orc_rt_TaskQueue_dispatch(orc_rt_TaskRef T, void *Ctx);

/** Runs the oldest queued task on the calling thread. False if the
 * queue was empty. */
ORC_RT_C_API bool orc_rt_TaskQueue_runOne(orc_rt_TaskQueueRef Q);

/** Runs tasks until the queue is empty (including ones queued meanwhile);
 * returns how many. */
ORC_RT_C_API size_t orc_rt_TaskQueue_runAll(orc_rt_TaskQueueRef Q);

/** Number of queued tasks. */
ORC_RT_C_API size_t orc_rt_TaskQueue_size(orc_rt_TaskQueueRef Q);

/** Destroys every queued task without running it, then frees Q. Q
 * may be NULL. */
ORC_RT_C_API void orc_rt_TaskQueue_destroy(orc_rt_TaskQueueRef Q);

/*---- Thread pool: N worker threads run tasks as they arrive. ----*/

typedef struct orc_rt_OpaqueThreadPool *orc_rt_ThreadPoolRef;

/**
 * Starts a pool of NumThreads (>= 1) workers. On error (thread creation or
 * memory) no thread is left running and *Result is untouched.
 */
ORC_RT_C_API orc_rt_ErrorRef
orc_rt_ThreadPool_create(orc_rt_ThreadPoolRef *Result, unsigned NumThreads);

/**
 * An orc_rt_DispatchFn: queues T for the pool passed as Ctx. After the pool has
 * started stopping, T is destroyed unrun instead. Thread-safe, including from
 * worker threads.
 */
ORC_RT_C_API void orc_rt_ThreadPool_dispatch(orc_rt_TaskRef T, void *Ctx);

/**
 * Stops the pool: new tasks are destroyed unrun, every task already queued is
 * run by the workers, then the workers are joined and P is freed. Blocks. Must
 * not be called from a worker of P (contract violation). P may be NULL.
 */
ORC_RT_C_API void orc_rt_ThreadPool_destroy(orc_rt_ThreadPoolRef P);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_DISPATCH_H */
