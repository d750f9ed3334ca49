/*
 * mpi.h - the MPI interface of comm (C bindings).
 *
 * Handles are pointers to incomplete structs, one type per kind of object, so the compiler
 * catches a communicator passed where a datatype is expected.  Predefined handles are small
 * constants (below 0x1000) rather than addresses of library objects: they are compile-time
 * constants, the library exports no data, and Fortran's integer handles map onto them
 * directly.  Status is a plain struct of eight ints (MPI_SOURCE, MPI_TAG, MPI_ERROR and five
 * reserved for the library).  Every function exists under its MPI_ name and its PMPI_ name.
 */
#ifndef COMM_MPI_H
#define COMM_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 1

#if defined(__GNUC__)
#define COMM_MPI_API __attribute__((visibility("default")))
#else
#define COMM_MPI_API
#endif

/* Handle types: chosen once, for the whole MPI-3.1 interface. */
typedef struct comm_communicator *MPI_Comm;
typedef struct comm_group *MPI_Group;
typedef struct comm_datatype *MPI_Datatype;
typedef struct comm_op *MPI_Op;
typedef struct comm_request *MPI_Request;
typedef struct comm_message *MPI_Message;
typedef struct comm_errhandler *MPI_Errhandler;
typedef struct comm_info *MPI_Info;
typedef struct comm_win *MPI_Win;
typedef struct comm_file *MPI_File;

typedef intptr_t MPI_Aint;
typedef int64_t MPI_Offset;
typedef int64_t MPI_Count;
typedef int MPI_Fint;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int comm_reserved[5];
} MPI_Status;

/* Predefined handles. */
#define MPI_COMM_NULL ((MPI_Comm)0x100)
#define MPI_COMM_WORLD ((MPI_Comm)0x101)
#define MPI_COMM_SELF ((MPI_Comm)0x102)

#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0x120)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x121)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)0x122)

/* Special values. */
#define MPI_PROC_NULL (-1)
#define MPI_ANY_SOURCE (-2)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)

/* Limits. */
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_PORT_NAME 1024

/* Thread support levels. */
enum {
    MPI_THREAD_SINGLE = 0,
    MPI_THREAD_FUNNELED = 1,
    MPI_THREAD_SERIALIZED = 2,
    MPI_THREAD_MULTIPLE = 3,
};

/* Error classes (MPI-3.1, section 8.4). */
enum {
    MPI_SUCCESS = 0,
    MPI_ERR_BUFFER = 1,
    MPI_ERR_COUNT = 2,
    MPI_ERR_TYPE = 3,
    MPI_ERR_TAG = 4,
    MPI_ERR_COMM = 5,
    MPI_ERR_RANK = 6,
    MPI_ERR_REQUEST = 7,
    MPI_ERR_ROOT = 8,
    MPI_ERR_GROUP = 9,
    MPI_ERR_OP = 10,
    MPI_ERR_TOPOLOGY = 11,
    MPI_ERR_DIMS = 12,
    MPI_ERR_ARG = 13,
    MPI_ERR_UNKNOWN = 14,
    MPI_ERR_TRUNCATE = 15,
    MPI_ERR_OTHER = 16,
    MPI_ERR_INTERN = 17,
    MPI_ERR_IN_STATUS = 18,
    MPI_ERR_PENDING = 19,
    MPI_ERR_KEYVAL = 20,
    MPI_ERR_NO_MEM = 21,
    MPI_ERR_BASE = 22,
    MPI_ERR_INFO_KEY = 23,
    MPI_ERR_INFO_VALUE = 24,
    MPI_ERR_INFO_NOKEY = 25,
    MPI_ERR_SPAWN = 26,
    MPI_ERR_PORT = 27,
    MPI_ERR_SERVICE = 28,
    MPI_ERR_NAME = 29,
    MPI_ERR_WIN = 30,
    MPI_ERR_SIZE = 31,
    MPI_ERR_DISP = 32,
    MPI_ERR_INFO = 33,
    MPI_ERR_LOCKTYPE = 34,
    MPI_ERR_ASSERT = 35,
    MPI_ERR_RMA_CONFLICT = 36,
    MPI_ERR_RMA_SYNC = 37,
    MPI_ERR_FILE = 38,
    MPI_ERR_NOT_SAME = 39,
    MPI_ERR_AMODE = 40,
    MPI_ERR_UNSUPPORTED_DATAREP = 41,
    MPI_ERR_UNSUPPORTED_OPERATION = 42,
    MPI_ERR_NO_SUCH_FILE = 43,
    MPI_ERR_FILE_EXISTS = 44,
    MPI_ERR_BAD_FILE = 45,
    MPI_ERR_ACCESS = 46,
    MPI_ERR_NO_SPACE = 47,
    MPI_ERR_QUOTA = 48,
    MPI_ERR_READ_ONLY = 49,
    MPI_ERR_FILE_IN_USE = 50,
    MPI_ERR_DUP_DATAREP = 51,
    MPI_ERR_CONVERSION = 52,
    MPI_ERR_IO = 53,
    MPI_ERR_RMA_RANGE = 54,
    MPI_ERR_RMA_ATTACH = 55,
    MPI_ERR_RMA_SHARED = 56,
    MPI_ERR_RMA_FLAVOR = 57,
    /* Codes 100 and up report a failure inside comm; MPI_Error_class maps them to a class. */
    MPI_ERR_LASTCODE = 127,
};

/* Environment management. */
COMM_MPI_API int MPI_Init(int *argc, char ***argv);
COMM_MPI_API int PMPI_Init(int *argc, char ***argv);
COMM_MPI_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
COMM_MPI_API int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided);
COMM_MPI_API int MPI_Finalize(void);
COMM_MPI_API int PMPI_Finalize(void);
COMM_MPI_API int MPI_Initialized(int *flag);
COMM_MPI_API int PMPI_Initialized(int *flag);
COMM_MPI_API int MPI_Finalized(int *flag);
COMM_MPI_API int PMPI_Finalized(int *flag);
COMM_MPI_API int MPI_Abort(MPI_Comm comm, int errorcode);
COMM_MPI_API int PMPI_Abort(MPI_Comm comm, int errorcode);
COMM_MPI_API int MPI_Query_thread(int *provided);
COMM_MPI_API int PMPI_Query_thread(int *provided);
COMM_MPI_API int MPI_Is_thread_main(int *flag);
COMM_MPI_API int PMPI_Is_thread_main(int *flag);
COMM_MPI_API double MPI_Wtime(void);
COMM_MPI_API double PMPI_Wtime(void);
COMM_MPI_API double MPI_Wtick(void);
COMM_MPI_API double PMPI_Wtick(void);
COMM_MPI_API int MPI_Get_processor_name(char *name, int *resultlen);
COMM_MPI_API int PMPI_Get_processor_name(char *name, int *resultlen);
COMM_MPI_API int MPI_Get_version(int *version, int *subversion);
COMM_MPI_API int PMPI_Get_version(int *version, int *subversion);
COMM_MPI_API int MPI_Get_library_version(char *version, int *resultlen);
COMM_MPI_API int PMPI_Get_library_version(char *version, int *resultlen);

/* Errors. */
COMM_MPI_API int MPI_Error_string(int errorcode, char *string, int *resultlen);
COMM_MPI_API int PMPI_Error_string(int errorcode, char *string, int *resultlen);
COMM_MPI_API int MPI_Error_class(int errorcode, int *errorclass);
COMM_MPI_API int PMPI_Error_class(int errorcode, int *errorclass);
COMM_MPI_API int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
COMM_MPI_API int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
COMM_MPI_API int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
COMM_MPI_API int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);

/* Communicators. */
COMM_MPI_API int MPI_Comm_rank(MPI_Comm comm, int *rank);
COMM_MPI_API int PMPI_Comm_rank(MPI_Comm comm, int *rank);
COMM_MPI_API int MPI_Comm_size(MPI_Comm comm, int *size);
COMM_MPI_API int PMPI_Comm_size(MPI_Comm comm, int *size);

#ifdef __cplusplus
}
#endif

#endif
