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

/* Predefined datatypes (0x200 to 0x2ff). */
#define MPI_DATATYPE_NULL ((MPI_Datatype)0x200)
#define MPI_CHAR ((MPI_Datatype)0x201)
#define MPI_SIGNED_CHAR ((MPI_Datatype)0x202)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)0x203)
#define MPI_BYTE ((MPI_Datatype)0x204)
#define MPI_WCHAR ((MPI_Datatype)0x205)
#define MPI_SHORT ((MPI_Datatype)0x206)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)0x207)
#define MPI_INT ((MPI_Datatype)0x208)
#define MPI_UNSIGNED ((MPI_Datatype)0x209)
#define MPI_LONG ((MPI_Datatype)0x20a)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)0x20b)
#define MPI_LONG_LONG_INT ((MPI_Datatype)0x20c)
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)0x20d)
#define MPI_FLOAT ((MPI_Datatype)0x20e)
#define MPI_DOUBLE ((MPI_Datatype)0x20f)
#define MPI_LONG_DOUBLE ((MPI_Datatype)0x210)
#define MPI_C_BOOL ((MPI_Datatype)0x211)
#define MPI_INT8_T ((MPI_Datatype)0x212)
#define MPI_INT16_T ((MPI_Datatype)0x213)
#define MPI_INT32_T ((MPI_Datatype)0x214)
#define MPI_INT64_T ((MPI_Datatype)0x215)
#define MPI_UINT8_T ((MPI_Datatype)0x216)
#define MPI_UINT16_T ((MPI_Datatype)0x217)
#define MPI_UINT32_T ((MPI_Datatype)0x218)
#define MPI_UINT64_T ((MPI_Datatype)0x219)
#define MPI_AINT ((MPI_Datatype)0x21a)
#define MPI_COUNT ((MPI_Datatype)0x21b)
#define MPI_OFFSET ((MPI_Datatype)0x21c)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)0x21d)
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)0x21e)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x21f)
#define MPI_PACKED ((MPI_Datatype)0x220)
#define MPI_FLOAT_INT ((MPI_Datatype)0x221)
#define MPI_DOUBLE_INT ((MPI_Datatype)0x222)
#define MPI_LONG_INT ((MPI_Datatype)0x223)
#define MPI_2INT ((MPI_Datatype)0x224)
#define MPI_SHORT_INT ((MPI_Datatype)0x225)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)0x226)
#define MPI_CHARACTER ((MPI_Datatype)0x227)
#define MPI_INTEGER ((MPI_Datatype)0x228)
#define MPI_REAL ((MPI_Datatype)0x229)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)0x22a)
#define MPI_LOGICAL ((MPI_Datatype)0x22b)
#define MPI_COMPLEX ((MPI_Datatype)0x22c)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)0x22d)
#define MPI_2INTEGER ((MPI_Datatype)0x22e)
#define MPI_2REAL ((MPI_Datatype)0x22f)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)0x230)
#define MPI_INTEGER1 ((MPI_Datatype)0x231)
#define MPI_INTEGER2 ((MPI_Datatype)0x232)
#define MPI_INTEGER4 ((MPI_Datatype)0x233)
#define MPI_INTEGER8 ((MPI_Datatype)0x234)
#define MPI_REAL4 ((MPI_Datatype)0x235)
#define MPI_REAL8 ((MPI_Datatype)0x236)
#define MPI_REAL16 ((MPI_Datatype)0x237)
#define MPI_COMPLEX8 ((MPI_Datatype)0x238)
#define MPI_COMPLEX16 ((MPI_Datatype)0x239)
#define MPI_COMPLEX32 ((MPI_Datatype)0x23a)
/* C++'s bool and std::complex<T> (MPI 3.1 defines them in C too): layouts as C's. */
#define MPI_CXX_BOOL ((MPI_Datatype)0x23b)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)0x23c)
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)0x23d)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x23e)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX

#define MPI_REQUEST_NULL ((MPI_Request)0x180)
#define MPI_MESSAGE_NULL ((MPI_Message)0x190)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)0x191)
#define MPI_GROUP_NULL ((MPI_Group)0x108)
#define MPI_GROUP_EMPTY ((MPI_Group)0x109)
#define MPI_INFO_NULL ((MPI_Info)0x110)
#define MPI_OP_NULL ((MPI_Op)0x140)

#define MPI_MAX ((MPI_Op)0x141)
#define MPI_MIN ((MPI_Op)0x142)
#define MPI_SUM ((MPI_Op)0x143)
#define MPI_PROD ((MPI_Op)0x144)
#define MPI_LAND ((MPI_Op)0x145)
#define MPI_BAND ((MPI_Op)0x146)
#define MPI_LOR ((MPI_Op)0x147)
#define MPI_BOR ((MPI_Op)0x148)
#define MPI_LXOR ((MPI_Op)0x149)
#define MPI_BXOR ((MPI_Op)0x14a)
#define MPI_MAXLOC ((MPI_Op)0x14b)
#define MPI_MINLOC ((MPI_Op)0x14c)
#define MPI_REPLACE ((MPI_Op)0x14d)
#define MPI_NO_OP ((MPI_Op)0x14e)

/* Results of MPI_Comm_compare and MPI_Group_compare. */
enum { MPI_IDENT = 0, MPI_CONGRUENT = 1, MPI_SIMILAR = 2, MPI_UNEQUAL = 3 };

/* MPI_Comm_split_type (HW_GUIDED and HW_UNGUIDED: MPI 4.0; RESOURCE_GUIDED: MPI 4.1). */
enum {
    MPI_COMM_TYPE_SHARED = 1,
    MPI_COMM_TYPE_HW_UNGUIDED = 2,
    MPI_COMM_TYPE_HW_GUIDED = 3,
    MPI_COMM_TYPE_RESOURCE_GUIDED = 4
};

typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function *)1)

#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_UNWEIGHTED ((int *)2)
#define MPI_ERRCODES_IGNORE ((int *)0)

/* Space MPI_Bsend needs in the attached buffer besides the packed message. */
#define MPI_BSEND_OVERHEAD 96

/* Predefined attribute keys. */
enum {
    MPI_TAG_UB = 0x1001,
    MPI_HOST = 0x1002,
    MPI_IO = 0x1003,
    MPI_WTIME_IS_GLOBAL = 0x1004,
    MPI_UNIVERSE_SIZE = 0x1005,
    MPI_APPNUM = 0x1006,
    MPI_LASTUSEDCODE = 0x1007,
};

/* Datatype constructors: combiners, array orders, distributions. */
enum {
    MPI_COMBINER_NAMED = 1,
    MPI_COMBINER_DUP,
    MPI_COMBINER_CONTIGUOUS,
    MPI_COMBINER_VECTOR,
    MPI_COMBINER_HVECTOR,
    MPI_COMBINER_INDEXED,
    MPI_COMBINER_HINDEXED,
    MPI_COMBINER_INDEXED_BLOCK,
    MPI_COMBINER_HINDEXED_BLOCK,
    MPI_COMBINER_STRUCT,
    MPI_COMBINER_SUBARRAY,
    MPI_COMBINER_DARRAY,
    MPI_COMBINER_F90_REAL,
    MPI_COMBINER_F90_COMPLEX,
    MPI_COMBINER_F90_INTEGER,
    MPI_COMBINER_RESIZED,
};
enum { MPI_ORDER_C = 56, MPI_ORDER_FORTRAN = 57 };
enum {
    MPI_DISTRIBUTE_BLOCK = 121,
    MPI_DISTRIBUTE_CYCLIC = 122,
    MPI_DISTRIBUTE_NONE = 123,
};
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* Error handler functions. */
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code, ...);

/* Special values. */
#define MPI_PROC_NULL (-1)
#define MPI_ANY_SOURCE (-2)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID (-1)

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
    /* The tools interface's return codes (MPI_T_*), also error classes. */
    MPI_T_ERR_MEMORY = 58,
    MPI_T_ERR_NOT_INITIALIZED = 59,
    MPI_T_ERR_CANNOT_INIT = 60,
    MPI_T_ERR_INVALID_INDEX = 61,
    MPI_T_ERR_INVALID_ITEM = 62,
    MPI_T_ERR_INVALID_HANDLE = 63,
    MPI_T_ERR_OUT_OF_HANDLES = 64,
    MPI_T_ERR_OUT_OF_SESSIONS = 65,
    MPI_T_ERR_INVALID_SESSION = 66,
    MPI_T_ERR_CVAR_SET_NOT_NOW = 67,
    MPI_T_ERR_CVAR_SET_NEVER = 68,
    MPI_T_ERR_PVAR_NO_STARTSTOP = 69,
    MPI_T_ERR_PVAR_NO_WRITE = 70,
    MPI_T_ERR_PVAR_NO_ATOMIC = 71,
    MPI_T_ERR_INVALID_NAME = 72,
    MPI_T_ERR_INVALID = 73,
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

/* Point-to-point. */
COMM_MPI_API int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm);
COMM_MPI_API int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm);
COMM_MPI_API int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm);
COMM_MPI_API int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm);
COMM_MPI_API int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm);
COMM_MPI_API int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm);
COMM_MPI_API int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm);
COMM_MPI_API int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm);
COMM_MPI_API int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                          MPI_Comm comm, MPI_Status *status);
COMM_MPI_API int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                           MPI_Comm comm, MPI_Status *status);
COMM_MPI_API int MPI_Buffer_attach(void *buffer, int size);
COMM_MPI_API int PMPI_Buffer_attach(void *buffer, int size);
COMM_MPI_API int MPI_Buffer_detach(void *buffer_addr, int *size);
COMM_MPI_API int PMPI_Buffer_detach(void *buffer_addr, int *size);
COMM_MPI_API int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                           MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                            MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                              int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              int source, int recvtag, MPI_Comm comm, MPI_Status *status);
COMM_MPI_API int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                               int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                               int source, int recvtag, MPI_Comm comm, MPI_Status *status);
COMM_MPI_API int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest,
                                      int sendtag, int source, int recvtag, MPI_Comm comm,
                                      MPI_Status *status);
COMM_MPI_API int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest,
                                       int sendtag, int source, int recvtag, MPI_Comm comm,
                                       MPI_Status *status);
COMM_MPI_API int MPI_Wait(MPI_Request *request, MPI_Status *status);
COMM_MPI_API int PMPI_Wait(MPI_Request *request, MPI_Status *status);
COMM_MPI_API int MPI_Waitall(int count, MPI_Request array_of_requests[],
                             MPI_Status array_of_statuses[]);
COMM_MPI_API int PMPI_Waitall(int count, MPI_Request array_of_requests[],
                              MPI_Status array_of_statuses[]);
COMM_MPI_API int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index,
                             MPI_Status *status);
COMM_MPI_API int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index,
                              MPI_Status *status);
COMM_MPI_API int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                              int array_of_indices[], MPI_Status array_of_statuses[]);
COMM_MPI_API int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                               int array_of_indices[], MPI_Status array_of_statuses[]);
COMM_MPI_API int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
COMM_MPI_API int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
COMM_MPI_API int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                             MPI_Status array_of_statuses[]);
COMM_MPI_API int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                              MPI_Status array_of_statuses[]);
COMM_MPI_API int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                             MPI_Status *status);
COMM_MPI_API int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                              MPI_Status *status);
COMM_MPI_API int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                              int array_of_indices[], MPI_Status array_of_statuses[]);
COMM_MPI_API int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                               int array_of_indices[], MPI_Status array_of_statuses[]);
COMM_MPI_API int MPI_Request_free(MPI_Request *request);
COMM_MPI_API int PMPI_Request_free(MPI_Request *request);
COMM_MPI_API int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
COMM_MPI_API int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
COMM_MPI_API int MPI_Cancel(MPI_Request *request);
COMM_MPI_API int PMPI_Cancel(MPI_Request *request);
COMM_MPI_API int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
COMM_MPI_API int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
COMM_MPI_API int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
COMM_MPI_API int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
COMM_MPI_API int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
                            MPI_Status *status);
COMM_MPI_API int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
                             MPI_Status *status);
COMM_MPI_API int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                             MPI_Status *status);
COMM_MPI_API int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                              MPI_Status *status);
COMM_MPI_API int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                           MPI_Status *status);
COMM_MPI_API int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                            MPI_Status *status);
COMM_MPI_API int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                            MPI_Request *request);
COMM_MPI_API int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                             MPI_Request *request);
COMM_MPI_API int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
COMM_MPI_API int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
COMM_MPI_API int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count);
COMM_MPI_API int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count);
COMM_MPI_API int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype,
                                    MPI_Count *count);
COMM_MPI_API int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype,
                                     MPI_Count *count);
COMM_MPI_API int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count);
COMM_MPI_API int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count);
COMM_MPI_API int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype,
                                           MPI_Count count);
COMM_MPI_API int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype,
                                            MPI_Count count);
COMM_MPI_API int MPI_Status_set_cancelled(MPI_Status *status, int flag);
COMM_MPI_API int PMPI_Status_set_cancelled(MPI_Status *status, int flag);
COMM_MPI_API int MPI_Test_cancelled(const MPI_Status *status, int *flag);
COMM_MPI_API int PMPI_Test_cancelled(const MPI_Status *status, int *flag);
COMM_MPI_API int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                                int tag, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                                int tag, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                                int tag, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                                int tag, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                               MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Start(MPI_Request *request);
COMM_MPI_API int PMPI_Start(MPI_Request *request);
COMM_MPI_API int MPI_Startall(int count, MPI_Request array_of_requests[]);
COMM_MPI_API int PMPI_Startall(int count, MPI_Request array_of_requests[]);
COMM_MPI_API int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
COMM_MPI_API int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);

/* Error handlers. */
COMM_MPI_API int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                            MPI_Errhandler *errhandler);
COMM_MPI_API int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                             MPI_Errhandler *errhandler);
COMM_MPI_API int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
COMM_MPI_API int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
COMM_MPI_API int MPI_Errhandler_free(MPI_Errhandler *errhandler);
COMM_MPI_API int PMPI_Errhandler_free(MPI_Errhandler *errhandler);

/* Datatypes. */
COMM_MPI_API int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                                  MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                                         MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                                          MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                                  const int array_of_displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                                   const int array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                          const MPI_Aint array_of_displacements[],
                                          MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                           const MPI_Aint array_of_displacements[],
                                           MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_indexed_block(int count, int blocklength,
                                               const int array_of_displacements[],
                                               MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_indexed_block(int count, int blocklength,
                                                const int array_of_displacements[],
                                                MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_hindexed_block(int count, int blocklength,
                                                const MPI_Aint array_of_displacements[],
                                                MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                                 const MPI_Aint array_of_displacements[],
                                                 MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                                        const MPI_Aint array_of_displacements[],
                                        const MPI_Datatype array_of_types[], MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                                         const MPI_Aint array_of_displacements[],
                                         const MPI_Datatype array_of_types[],
                                         MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                                          const int array_of_subsizes[],
                                          const int array_of_starts[], int order,
                                          MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                                           const int array_of_subsizes[],
                                           const int array_of_starts[], int order,
                                           MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                                        const int array_of_distribs[], const int array_of_dargs[],
                                        const int array_of_psizes[], int order,
                                        MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                                         const int array_of_distribs[], const int array_of_dargs[],
                                         const int array_of_psizes[], int order,
                                         MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                         MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                          MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_commit(MPI_Datatype *datatype);
COMM_MPI_API int PMPI_Type_commit(MPI_Datatype *datatype);
COMM_MPI_API int MPI_Type_free(MPI_Datatype *datatype);
COMM_MPI_API int PMPI_Type_free(MPI_Datatype *datatype);
COMM_MPI_API int MPI_Type_size(MPI_Datatype datatype, int *size);
COMM_MPI_API int PMPI_Type_size(MPI_Datatype datatype, int *size);
COMM_MPI_API int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size);
COMM_MPI_API int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size);
COMM_MPI_API int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent);
COMM_MPI_API int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent);
COMM_MPI_API int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
COMM_MPI_API int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
COMM_MPI_API int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
                                          MPI_Aint *true_extent);
COMM_MPI_API int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
                                           MPI_Aint *true_extent);
COMM_MPI_API int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                                            MPI_Count *true_extent);
COMM_MPI_API int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                                             MPI_Count *true_extent);
COMM_MPI_API int MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                       int *num_datatypes, int *combiner);
COMM_MPI_API int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers,
                                        int *num_addresses, int *num_datatypes, int *combiner);
COMM_MPI_API int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                                       int max_datatypes, int array_of_integers[],
                                       MPI_Aint array_of_addresses[],
                                       MPI_Datatype array_of_datatypes[]);
COMM_MPI_API int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                                        int max_datatypes, int array_of_integers[],
                                        MPI_Aint array_of_addresses[],
                                        MPI_Datatype array_of_datatypes[]);
COMM_MPI_API int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                          int outsize, int *position, MPI_Comm comm);
COMM_MPI_API int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                           int outsize, int *position, MPI_Comm comm);
COMM_MPI_API int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
                            int outcount, MPI_Datatype datatype, MPI_Comm comm);
COMM_MPI_API int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
                             int outcount, MPI_Datatype datatype, MPI_Comm comm);
COMM_MPI_API int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size);
COMM_MPI_API int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size);
COMM_MPI_API int MPI_Get_address(const void *location, MPI_Aint *address);
COMM_MPI_API int PMPI_Get_address(const void *location, MPI_Aint *address);
COMM_MPI_API MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
COMM_MPI_API MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp);
COMM_MPI_API MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
COMM_MPI_API MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);

/* Groups. */
COMM_MPI_API int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
COMM_MPI_API int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group);
COMM_MPI_API int MPI_Group_size(MPI_Group group, int *size);
COMM_MPI_API int PMPI_Group_size(MPI_Group group, int *size);
COMM_MPI_API int MPI_Group_rank(MPI_Group group, int *rank);
COMM_MPI_API int PMPI_Group_rank(MPI_Group group, int *rank);
COMM_MPI_API int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                                           MPI_Group group2, int ranks2[]);
COMM_MPI_API int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                                            MPI_Group group2, int ranks2[]);
COMM_MPI_API int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
COMM_MPI_API int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
COMM_MPI_API int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
COMM_MPI_API int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
COMM_MPI_API int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
COMM_MPI_API int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
COMM_MPI_API int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
COMM_MPI_API int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
COMM_MPI_API int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
COMM_MPI_API int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
COMM_MPI_API int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
COMM_MPI_API int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
COMM_MPI_API int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
COMM_MPI_API int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
                                       MPI_Group *newgroup);
COMM_MPI_API int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
COMM_MPI_API int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
                                       MPI_Group *newgroup);
COMM_MPI_API int MPI_Group_free(MPI_Group *group);
COMM_MPI_API int PMPI_Group_free(MPI_Group *group);

/* Info objects. */
COMM_MPI_API int MPI_Info_create(MPI_Info *info);
COMM_MPI_API int PMPI_Info_create(MPI_Info *info);
COMM_MPI_API int MPI_Info_set(MPI_Info info, const char *key, const char *value);
COMM_MPI_API int PMPI_Info_set(MPI_Info info, const char *key, const char *value);
COMM_MPI_API int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
COMM_MPI_API int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                               int *flag);
COMM_MPI_API int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
COMM_MPI_API int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
COMM_MPI_API int MPI_Info_delete(MPI_Info info, const char *key);
COMM_MPI_API int PMPI_Info_delete(MPI_Info info, const char *key);
COMM_MPI_API int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
COMM_MPI_API int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
COMM_MPI_API int MPI_Info_free(MPI_Info *info);
COMM_MPI_API int PMPI_Info_free(MPI_Info *info);
COMM_MPI_API int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
COMM_MPI_API int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys);
COMM_MPI_API int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
COMM_MPI_API int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key);

/* Reduction operations. */
COMM_MPI_API int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op);
COMM_MPI_API int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op);
COMM_MPI_API int MPI_Op_free(MPI_Op *op);
COMM_MPI_API int PMPI_Op_free(MPI_Op *op);
COMM_MPI_API int MPI_Op_commutative(MPI_Op op, int *commute);
COMM_MPI_API int PMPI_Op_commutative(MPI_Op op, int *commute);
COMM_MPI_API int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                                  MPI_Datatype datatype, MPI_Op op);
COMM_MPI_API int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                                   MPI_Datatype datatype, MPI_Op op);

/* Collectives. */
COMM_MPI_API int MPI_Barrier(MPI_Comm comm);
COMM_MPI_API int PMPI_Barrier(MPI_Comm comm);
COMM_MPI_API int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
COMM_MPI_API int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
                            MPI_Comm comm);
COMM_MPI_API int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm);
COMM_MPI_API int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, int root, MPI_Comm comm);
COMM_MPI_API int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm);
COMM_MPI_API int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* Communicator management. */
COMM_MPI_API int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
COMM_MPI_API int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
COMM_MPI_API int MPI_Comm_free(MPI_Comm *comm);
COMM_MPI_API int PMPI_Comm_free(MPI_Comm *comm);
COMM_MPI_API int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
COMM_MPI_API int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
COMM_MPI_API int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
COMM_MPI_API int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
COMM_MPI_API int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);
COMM_MPI_API int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);
COMM_MPI_API int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
COMM_MPI_API int PMPI_Comm_test_inter(MPI_Comm comm, int *flag);

/* Communicators from groups, the nonblocking duplicate, intercommunicators, attributes. */
COMM_MPI_API int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
COMM_MPI_API int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
COMM_MPI_API int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
COMM_MPI_API int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
COMM_MPI_API int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                      int remote_leader, int tag, MPI_Comm *newintercomm);
COMM_MPI_API int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                       int remote_leader, int tag, MPI_Comm *newintercomm);
COMM_MPI_API int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
COMM_MPI_API int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
COMM_MPI_API int MPI_Comm_remote_size(MPI_Comm comm, int *size);
COMM_MPI_API int PMPI_Comm_remote_size(MPI_Comm comm, int *size);
COMM_MPI_API int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
COMM_MPI_API int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
COMM_MPI_API int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                        MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                                        int *comm_keyval, void *extra_state);
COMM_MPI_API int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                         MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                                         int *comm_keyval, void *extra_state);
COMM_MPI_API int MPI_Comm_free_keyval(int *comm_keyval);
COMM_MPI_API int PMPI_Comm_free_keyval(int *comm_keyval);
COMM_MPI_API int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
COMM_MPI_API int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
COMM_MPI_API int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
COMM_MPI_API int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);

/* Nonblocking collectives. */
COMM_MPI_API int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                            MPI_Request *request);
COMM_MPI_API int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                              MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Request *request);
COMM_MPI_API int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request);
COMM_MPI_API int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request);
COMM_MPI_API int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Request *request);
COMM_MPI_API int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request *request);
COMM_MPI_API int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request);

/* Gathers and scatters. */
COMM_MPI_API int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm);
COMM_MPI_API int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm);
COMM_MPI_API int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm);
COMM_MPI_API int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, int root, MPI_Comm comm);
COMM_MPI_API int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm);
COMM_MPI_API int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm);
COMM_MPI_API int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                              MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm);
COMM_MPI_API int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                               MPI_Datatype sendtype, void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm);
COMM_MPI_API int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm);

/* All-to-all. */
COMM_MPI_API int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf,
                               const int recvcounts[], const int rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm);
COMM_MPI_API int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf,
                                const int recvcounts[], const int rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm);

/* Reduce-scatter and prefix reductions. */
COMM_MPI_API int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
COMM_MPI_API int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
COMM_MPI_API int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
COMM_MPI_API int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
COMM_MPI_API int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm);
COMM_MPI_API int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm);
COMM_MPI_API int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm);
COMM_MPI_API int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm);

/* More communicator management, and memory. */
COMM_MPI_API int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                                     MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                                      MPI_Comm *newcomm);
COMM_MPI_API int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
COMM_MPI_API int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
COMM_MPI_API int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
COMM_MPI_API int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
COMM_MPI_API int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
COMM_MPI_API int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
COMM_MPI_API int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
COMM_MPI_API int MPI_Free_mem(void *base);
COMM_MPI_API int PMPI_Free_mem(void *base);

/* Process topologies (MPI 3.1 chapter 7) and neighbourhood collectives.  Weight arguments are
 * pointers, not arrays: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are not arrays gcc could check. */
enum { MPI_GRAPH = 1, MPI_CART = 2, MPI_DIST_GRAPH = 3 };
#define MPI_WEIGHTS_EMPTY ((int *)3)
COMM_MPI_API int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                                 const int periods[], int reorder, MPI_Comm *comm_cart);
COMM_MPI_API int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                                  const int periods[], int reorder, MPI_Comm *comm_cart);
COMM_MPI_API int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
COMM_MPI_API int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
COMM_MPI_API int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
COMM_MPI_API int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
COMM_MPI_API int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
                                int *rank_dest);
COMM_MPI_API int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
                                 int *rank_dest);
COMM_MPI_API int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
COMM_MPI_API int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
COMM_MPI_API int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
COMM_MPI_API int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                              int *newrank);
COMM_MPI_API int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                               int *newrank);
COMM_MPI_API int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
COMM_MPI_API int PMPI_Cartdim_get(MPI_Comm comm, int *ndims);
COMM_MPI_API int MPI_Dims_create(int nnodes, int ndims, int dims[]);
COMM_MPI_API int PMPI_Dims_create(int nnodes, int ndims, int dims[]);
COMM_MPI_API int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
                                  const int edges[], int reorder, MPI_Comm *comm_graph);
COMM_MPI_API int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
                                   const int edges[], int reorder, MPI_Comm *comm_graph);
COMM_MPI_API int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
COMM_MPI_API int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
                                int edges[]);
COMM_MPI_API int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
COMM_MPI_API int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
COMM_MPI_API int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
COMM_MPI_API int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
COMM_MPI_API int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
COMM_MPI_API int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
COMM_MPI_API int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                               int *newrank);
COMM_MPI_API int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                                int *newrank);
COMM_MPI_API int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                                       const int degrees[], const int destinations[],
                                       const int *weights, MPI_Info info, int reorder,
                                       MPI_Comm *comm_dist_graph);
COMM_MPI_API int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                                        const int degrees[], const int destinations[],
                                        const int *weights, MPI_Info info, int reorder,
                                        MPI_Comm *comm_dist_graph);
COMM_MPI_API int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                                const int sources[], const int *sourceweights,
                                                int outdegree, const int destinations[],
                                                const int *destweights, MPI_Info info, int reorder,
                                                MPI_Comm *comm_dist_graph);
COMM_MPI_API int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                                 const int sources[], const int *sourceweights,
                                                 int outdegree, const int destinations[],
                                                 const int *destweights, MPI_Info info, int reorder,
                                                 MPI_Comm *comm_dist_graph);
COMM_MPI_API int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                                          int *sourceweights, int maxoutdegree, int destinations[],
                                          int *destweights);
COMM_MPI_API int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                                           int *sourceweights, int maxoutdegree, int destinations[],
                                           int *destweights);
COMM_MPI_API int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                                                int *weighted);
COMM_MPI_API int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                                                 int *weighted);
COMM_MPI_API int MPI_Topo_test(MPI_Comm comm, int *status);
COMM_MPI_API int PMPI_Topo_test(MPI_Comm comm, int *status);
COMM_MPI_API int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm);
COMM_MPI_API int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                         MPI_Comm comm);
COMM_MPI_API int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void *recvbuf, const int recvcounts[], const int displs[],
                                         MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void *recvbuf, const int recvcounts[], const int displs[],
                                          MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                       MPI_Comm comm);
COMM_MPI_API int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm);
COMM_MPI_API int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                                        const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                        const int recvcounts[], const int rdispls[],
                                        MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                                         const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                         const int recvcounts[], const int rdispls[],
                                         MPI_Datatype recvtype, MPI_Comm comm);
COMM_MPI_API int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                        const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                        void *recvbuf, const int recvcounts[],
                                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                        MPI_Comm comm);
COMM_MPI_API int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                         void *recvbuf, const int recvcounts[],
                                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                         MPI_Comm comm);
/* MPI 4.0's persistent neighbourhood collectives. */
COMM_MPI_API int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                         MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                          MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void *recvbuf, const int recvcounts[], const int displs[],
                                          MPI_Datatype recvtype, MPI_Comm comm,
                                          MPI_Request *request);
COMM_MPI_API int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
                                           MPI_Datatype sendtype, void *recvbuf,
                                           const int recvcounts[], const int displs[],
                                           MPI_Datatype recvtype, MPI_Comm comm,
                                           MPI_Request *request);
COMM_MPI_API int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                         MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                                         const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                         const int recvcounts[], const int rdispls[],
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         MPI_Request *request);
COMM_MPI_API int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                                          const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                          const int recvcounts[], const int rdispls[],
                                          MPI_Datatype recvtype, MPI_Comm comm,
                                          MPI_Request *request);
COMM_MPI_API int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                         void *recvbuf, const int recvcounts[],
                                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                         MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                          void *recvbuf, const int recvcounts[],
                                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                          MPI_Comm comm, MPI_Request *request);
/* Nonblocking collectives: the v and w forms, reduce-scatters and prefix reductions. */
COMM_MPI_API int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
COMM_MPI_API int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);

/* Persistent collectives (MPI 4.0): started by MPI_Start; the info keys are ignored. */
COMM_MPI_API int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
COMM_MPI_API int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
/*
 * Names, attributes and errors of the smaller chapters; handle conversion; generalized
 * requests; external32 packing; the tools interface (MPI_T); deprecated and removed functions
 * that programs still call; dynamic processes (present so programs link: they return
 * MPI_ERR_SPAWN, MPI_ERR_PORT, MPI_ERR_SERVICE or MPI_ERR_NAME, see comm(7)).
 */
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function *)1)

/* Deprecated (MPI-1) attribute and error-handler callbacks. */
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef void MPI_Handler_function(MPI_Comm *comm, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
#define MPI_NULL_COPY_FN ((MPI_Copy_function *)0)
#define MPI_NULL_DELETE_FN ((MPI_Delete_function *)0)
#define MPI_DUP_FN ((MPI_Copy_function *)1)

/* Generalized requests. */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* Combiners of the deprecated Fortran constructors (never returned by comm). */
enum {
    MPI_COMBINER_HVECTOR_INTEGER = 101,
    MPI_COMBINER_HINDEXED_INTEGER = 102,
    MPI_COMBINER_STRUCT_INTEGER = 103,
};

/* The predefined info object of the environment the process started in (empty in comm). */
#define MPI_INFO_ENV ((MPI_Info)0x111)

/* MPI_Type_match_size. */
enum { MPI_TYPECLASS_INTEGER = 1, MPI_TYPECLASS_REAL = 2, MPI_TYPECLASS_COMPLEX = 3 };

#define MPI_MAX_DATAREP_STRING 128
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)

/* Fortran: a status is MPI_F_STATUS_SIZE integers; MPI_F_STATUS_IGNORE is NULL. */
#define MPI_F_STATUS_SIZE 8
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)

COMM_MPI_API int MPI_Pcontrol(const int level, ...);
COMM_MPI_API int PMPI_Pcontrol(const int level, ...);
COMM_MPI_API int MPI_Comm_get_parent(MPI_Comm *parent);
COMM_MPI_API int PMPI_Comm_get_parent(MPI_Comm *parent);

COMM_MPI_API int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name);
COMM_MPI_API int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name);
COMM_MPI_API int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen);
COMM_MPI_API int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen);
COMM_MPI_API int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                        MPI_Type_delete_attr_function *type_delete_attr_fn,
                                        int *type_keyval, void *extra_state);
COMM_MPI_API int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                         MPI_Type_delete_attr_function *type_delete_attr_fn,
                                         int *type_keyval, void *extra_state);
COMM_MPI_API int MPI_Type_free_keyval(int *type_keyval);
COMM_MPI_API int PMPI_Type_free_keyval(int *type_keyval);
COMM_MPI_API int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val);
COMM_MPI_API int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val);
COMM_MPI_API int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                   int *flag);
COMM_MPI_API int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                    int *flag);
COMM_MPI_API int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval);
COMM_MPI_API int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval);

COMM_MPI_API int MPI_Add_error_class(int *errorclass);
COMM_MPI_API int PMPI_Add_error_class(int *errorclass);
COMM_MPI_API int MPI_Add_error_code(int errorclass, int *errorcode);
COMM_MPI_API int PMPI_Add_error_code(int errorclass, int *errorcode);
COMM_MPI_API int MPI_Add_error_string(int errorcode, const char *string);
COMM_MPI_API int PMPI_Add_error_string(int errorcode, const char *string);

COMM_MPI_API MPI_Fint MPI_Comm_c2f(MPI_Comm comm);
COMM_MPI_API MPI_Fint PMPI_Comm_c2f(MPI_Comm comm);
COMM_MPI_API MPI_Comm MPI_Comm_f2c(MPI_Fint comm);
COMM_MPI_API MPI_Comm PMPI_Comm_f2c(MPI_Fint comm);
COMM_MPI_API MPI_Fint MPI_Type_c2f(MPI_Datatype datatype);
COMM_MPI_API MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype);
COMM_MPI_API MPI_Datatype MPI_Type_f2c(MPI_Fint datatype);
COMM_MPI_API MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype);
COMM_MPI_API MPI_Fint MPI_Group_c2f(MPI_Group group);
COMM_MPI_API MPI_Fint PMPI_Group_c2f(MPI_Group group);
COMM_MPI_API MPI_Group MPI_Group_f2c(MPI_Fint group);
COMM_MPI_API MPI_Group PMPI_Group_f2c(MPI_Fint group);
COMM_MPI_API MPI_Fint MPI_Request_c2f(MPI_Request request);
COMM_MPI_API MPI_Fint PMPI_Request_c2f(MPI_Request request);
COMM_MPI_API MPI_Request MPI_Request_f2c(MPI_Fint request);
COMM_MPI_API MPI_Request PMPI_Request_f2c(MPI_Fint request);
COMM_MPI_API MPI_Fint MPI_Op_c2f(MPI_Op op);
COMM_MPI_API MPI_Fint PMPI_Op_c2f(MPI_Op op);
COMM_MPI_API MPI_Op MPI_Op_f2c(MPI_Fint op);
COMM_MPI_API MPI_Op PMPI_Op_f2c(MPI_Fint op);
COMM_MPI_API MPI_Fint MPI_Info_c2f(MPI_Info info);
COMM_MPI_API MPI_Fint PMPI_Info_c2f(MPI_Info info);
COMM_MPI_API MPI_Info MPI_Info_f2c(MPI_Fint info);
COMM_MPI_API MPI_Info PMPI_Info_f2c(MPI_Fint info);
COMM_MPI_API MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler);
COMM_MPI_API MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler);
COMM_MPI_API MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler);
COMM_MPI_API MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler);
COMM_MPI_API MPI_Fint MPI_Message_c2f(MPI_Message message);
COMM_MPI_API MPI_Fint PMPI_Message_c2f(MPI_Message message);
COMM_MPI_API MPI_Message MPI_Message_f2c(MPI_Fint message);
COMM_MPI_API MPI_Message PMPI_Message_f2c(MPI_Fint message);
COMM_MPI_API int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
COMM_MPI_API int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
COMM_MPI_API int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
COMM_MPI_API int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);

COMM_MPI_API int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                                    MPI_Grequest_free_function *free_fn,
                                    MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                                    MPI_Request *request);
COMM_MPI_API int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                                     MPI_Grequest_free_function *free_fn,
                                     MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                                     MPI_Request *request);
COMM_MPI_API int MPI_Grequest_complete(MPI_Request request);
COMM_MPI_API int PMPI_Grequest_complete(MPI_Request request);

COMM_MPI_API int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                                   MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                                   MPI_Aint *position);
COMM_MPI_API int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                                    MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                                    MPI_Aint *position);
COMM_MPI_API int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                                     MPI_Aint *position, void *outbuf, int outcount,
                                     MPI_Datatype datatype);
COMM_MPI_API int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                                      MPI_Aint *position, void *outbuf, int outcount,
                                      MPI_Datatype datatype);
COMM_MPI_API int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                                        MPI_Aint *size);
COMM_MPI_API int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                                         MPI_Aint *size);
COMM_MPI_API int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
COMM_MPI_API int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
COMM_MPI_API int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);

/* Deprecated and removed (MPI-1) functions, kept as thin wrappers over their replacements. */
COMM_MPI_API int MPI_Address(void *location, MPI_Aint *address);
COMM_MPI_API int PMPI_Address(void *location, MPI_Aint *address);
COMM_MPI_API int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent);
COMM_MPI_API int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent);
COMM_MPI_API int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
COMM_MPI_API int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
COMM_MPI_API int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
COMM_MPI_API int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
COMM_MPI_API int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                  MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
                                   MPI_Datatype oldtype, MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_hindexed(int count, int array_of_blocklengths[],
                                   MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_hindexed(int count, int array_of_blocklengths[],
                                    MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype);
COMM_MPI_API int MPI_Type_struct(int count, int array_of_blocklengths[],
                                 MPI_Aint array_of_displacements[], MPI_Datatype array_of_types[],
                                 MPI_Datatype *newtype);
COMM_MPI_API int PMPI_Type_struct(int count, int array_of_blocklengths[],
                                  MPI_Aint array_of_displacements[], MPI_Datatype array_of_types[],
                                  MPI_Datatype *newtype);
COMM_MPI_API int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
COMM_MPI_API int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
COMM_MPI_API int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
COMM_MPI_API int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
COMM_MPI_API int MPI_Attr_delete(MPI_Comm comm, int keyval);
COMM_MPI_API int PMPI_Attr_delete(MPI_Comm comm, int keyval);
COMM_MPI_API int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                                   int *keyval, void *extra_state);
COMM_MPI_API int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                                    int *keyval, void *extra_state);
COMM_MPI_API int MPI_Keyval_free(int *keyval);
COMM_MPI_API int PMPI_Keyval_free(int *keyval);
COMM_MPI_API int MPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler);
COMM_MPI_API int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler);
COMM_MPI_API int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
COMM_MPI_API int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
COMM_MPI_API int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);
COMM_MPI_API int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);

/* Dynamic processes: not supported (see comm(7)); MPI_Comm_disconnect works on ordinary
 * communicators. */
COMM_MPI_API int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info,
                                int root, MPI_Comm comm, MPI_Comm *intercomm,
                                int array_of_errcodes[]);
COMM_MPI_API int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info,
                                 int root, MPI_Comm comm, MPI_Comm *intercomm,
                                 int array_of_errcodes[]);
COMM_MPI_API int MPI_Comm_spawn_multiple(int count, char *array_of_commands[],
                                         char **array_of_argv[], const int array_of_maxprocs[],
                                         const MPI_Info array_of_info[], int root, MPI_Comm comm,
                                         MPI_Comm *intercomm, int array_of_errcodes[]);
COMM_MPI_API int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[],
                                          char **array_of_argv[], const int array_of_maxprocs[],
                                          const MPI_Info array_of_info[], int root, MPI_Comm comm,
                                          MPI_Comm *intercomm, int array_of_errcodes[]);
COMM_MPI_API int MPI_Open_port(MPI_Info info, char *port_name);
COMM_MPI_API int PMPI_Open_port(MPI_Info info, char *port_name);
COMM_MPI_API int MPI_Close_port(const char *port_name);
COMM_MPI_API int PMPI_Close_port(const char *port_name);
COMM_MPI_API int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                                 MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                                  MPI_Comm *newcomm);
COMM_MPI_API int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                                  MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                                   MPI_Comm *newcomm);
COMM_MPI_API int MPI_Comm_disconnect(MPI_Comm *comm);
COMM_MPI_API int PMPI_Comm_disconnect(MPI_Comm *comm);
COMM_MPI_API int MPI_Comm_join(int fd, MPI_Comm *intercomm);
COMM_MPI_API int PMPI_Comm_join(int fd, MPI_Comm *intercomm);
COMM_MPI_API int MPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name);
COMM_MPI_API int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name);
COMM_MPI_API int MPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name);
COMM_MPI_API int PMPI_Unpublish_name(const char *service_name, MPI_Info info,
                                     const char *port_name);
COMM_MPI_API int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name);
COMM_MPI_API int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name);

/*
 * The tools interface (MPI_T).  Control variables are comm's settings (what comm-info lists),
 * read-only: comm reads them from the environment when it starts.  There are no performance
 * variables.  See comm(7).
 */
typedef struct comm_t_enum *MPI_T_enum;
typedef struct comm_t_cvar_handle *MPI_T_cvar_handle;
typedef struct comm_t_pvar_handle *MPI_T_pvar_handle;
typedef struct comm_t_pvar_session *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)1)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)

enum {
    MPI_T_VERBOSITY_USER_BASIC = 221,
    MPI_T_VERBOSITY_USER_DETAIL,
    MPI_T_VERBOSITY_USER_ALL,
    MPI_T_VERBOSITY_TUNER_BASIC,
    MPI_T_VERBOSITY_TUNER_DETAIL,
    MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC,
    MPI_T_VERBOSITY_MPIDEV_DETAIL,
    MPI_T_VERBOSITY_MPIDEV_ALL,
};
enum {
    MPI_T_BIND_NO_OBJECT = 9700,
    MPI_T_BIND_MPI_COMM,
    MPI_T_BIND_MPI_DATATYPE,
    MPI_T_BIND_MPI_ERRHANDLER,
    MPI_T_BIND_MPI_FILE,
    MPI_T_BIND_MPI_GROUP,
    MPI_T_BIND_MPI_OP,
    MPI_T_BIND_MPI_REQUEST,
    MPI_T_BIND_MPI_WIN,
    MPI_T_BIND_MPI_MESSAGE,
    MPI_T_BIND_MPI_INFO,
};
enum {
    MPI_T_SCOPE_CONSTANT = 60438,
    MPI_T_SCOPE_READONLY,
    MPI_T_SCOPE_LOCAL,
    MPI_T_SCOPE_GROUP,
    MPI_T_SCOPE_GROUP_EQ,
    MPI_T_SCOPE_ALL,
    MPI_T_SCOPE_ALL_EQ,
};
enum {
    MPI_T_PVAR_CLASS_STATE = 240,
    MPI_T_PVAR_CLASS_LEVEL,
    MPI_T_PVAR_CLASS_SIZE,
    MPI_T_PVAR_CLASS_PERCENTAGE,
    MPI_T_PVAR_CLASS_HIGHWATERMARK,
    MPI_T_PVAR_CLASS_LOWWATERMARK,
    MPI_T_PVAR_CLASS_COUNTER,
    MPI_T_PVAR_CLASS_AGGREGATE,
    MPI_T_PVAR_CLASS_TIMER,
    MPI_T_PVAR_CLASS_GENERIC,
};

COMM_MPI_API int MPI_T_init_thread(int required, int *provided);
COMM_MPI_API int PMPI_T_init_thread(int required, int *provided);
COMM_MPI_API int MPI_T_finalize(void);
COMM_MPI_API int PMPI_T_finalize(void);
COMM_MPI_API int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len);
COMM_MPI_API int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len);
COMM_MPI_API int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name,
                                     int *name_len);
COMM_MPI_API int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name,
                                      int *name_len);
COMM_MPI_API int MPI_T_cvar_get_num(int *num_cvar);
COMM_MPI_API int PMPI_T_cvar_get_num(int *num_cvar);
COMM_MPI_API int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                                     MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                                     int *desc_len, int *binding, int *scope);
COMM_MPI_API int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                                      MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                                      int *desc_len, int *binding, int *scope);
COMM_MPI_API int MPI_T_cvar_get_index(const char *name, int *cvar_index);
COMM_MPI_API int PMPI_T_cvar_get_index(const char *name, int *cvar_index);
COMM_MPI_API int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                                         MPI_T_cvar_handle *handle, int *count);
COMM_MPI_API int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                                          MPI_T_cvar_handle *handle, int *count);
COMM_MPI_API int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
COMM_MPI_API int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
COMM_MPI_API int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
COMM_MPI_API int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
COMM_MPI_API int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
COMM_MPI_API int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
COMM_MPI_API int MPI_T_pvar_get_num(int *num_pvar);
COMM_MPI_API int PMPI_T_pvar_get_num(int *num_pvar);
COMM_MPI_API int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                                     int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                                     char *desc, int *desc_len, int *binding, int *readonly,
                                     int *continuous, int *atomic);
COMM_MPI_API int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                                      int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                                      char *desc, int *desc_len, int *binding, int *readonly,
                                      int *continuous, int *atomic);
COMM_MPI_API int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
COMM_MPI_API int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
COMM_MPI_API int MPI_T_pvar_session_create(MPI_T_pvar_session *session);
COMM_MPI_API int PMPI_T_pvar_session_create(MPI_T_pvar_session *session);
COMM_MPI_API int MPI_T_pvar_session_free(MPI_T_pvar_session *session);
COMM_MPI_API int PMPI_T_pvar_session_free(MPI_T_pvar_session *session);
COMM_MPI_API int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                                         void *obj_handle, MPI_T_pvar_handle *handle, int *count);
COMM_MPI_API int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                                          void *obj_handle, MPI_T_pvar_handle *handle, int *count);
COMM_MPI_API int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle);
COMM_MPI_API int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle);
COMM_MPI_API int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
COMM_MPI_API int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
COMM_MPI_API int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
COMM_MPI_API int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
COMM_MPI_API int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
COMM_MPI_API int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
COMM_MPI_API int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                                  const void *buf);
COMM_MPI_API int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                                   const void *buf);
COMM_MPI_API int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
COMM_MPI_API int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
COMM_MPI_API int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                                      void *buf);
COMM_MPI_API int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                                       void *buf);
COMM_MPI_API int MPI_T_category_get_num(int *num_cat);
COMM_MPI_API int PMPI_T_category_get_num(int *num_cat);
COMM_MPI_API int MPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc,
                                         int *desc_len, int *num_cvars, int *num_pvars,
                                         int *num_categories);
COMM_MPI_API int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc,
                                          int *desc_len, int *num_cvars, int *num_pvars,
                                          int *num_categories);
COMM_MPI_API int MPI_T_category_get_index(const char *name, int *cat_index);
COMM_MPI_API int PMPI_T_category_get_index(const char *name, int *cat_index);
COMM_MPI_API int MPI_T_category_get_cvars(int cat_index, int len, int indices[]);
COMM_MPI_API int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]);
COMM_MPI_API int MPI_T_category_get_pvars(int cat_index, int len, int indices[]);
COMM_MPI_API int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]);
COMM_MPI_API int MPI_T_category_get_categories(int cat_index, int len, int indices[]);
COMM_MPI_API int PMPI_T_category_get_categories(int cat_index, int len, int indices[]);
COMM_MPI_API int MPI_T_category_changed(int *stamp);
COMM_MPI_API int PMPI_T_category_changed(int *stamp);
/* ---- MPI 4.0 sessions (runtime/api/session.c) ------------------------------------------ */
typedef struct comm_session *MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0x130)
COMM_MPI_API MPI_Fint MPI_Session_c2f(MPI_Session session);
COMM_MPI_API MPI_Fint PMPI_Session_c2f(MPI_Session session);
COMM_MPI_API MPI_Session MPI_Session_f2c(MPI_Fint session);
COMM_MPI_API MPI_Session PMPI_Session_f2c(MPI_Fint session);
typedef void MPI_Session_errhandler_function(MPI_Session *session, int *error_code, ...);
#define MPI_MAX_PSET_NAME_LEN 512
#define MPI_MAX_STRINGTAG_LEN 256
enum { MPI_ERR_SESSION = 74 }; /* after the tools interface's classes */

COMM_MPI_API int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session);
COMM_MPI_API int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session);
COMM_MPI_API int MPI_Session_finalize(MPI_Session *session);
COMM_MPI_API int PMPI_Session_finalize(MPI_Session *session);
COMM_MPI_API int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names);
COMM_MPI_API int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names);
COMM_MPI_API int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                                          char *pset_name);
COMM_MPI_API int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                                           char *pset_name);
COMM_MPI_API int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
COMM_MPI_API int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
COMM_MPI_API int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name,
                                           MPI_Info *info);
COMM_MPI_API int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name,
                                            MPI_Info *info);
COMM_MPI_API int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                             MPI_Group *newgroup);
COMM_MPI_API int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                              MPI_Group *newgroup);
COMM_MPI_API int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                            MPI_Errhandler errhandler, MPI_Comm *newcomm);
COMM_MPI_API int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                             MPI_Errhandler errhandler, MPI_Comm *newcomm);
COMM_MPI_API int MPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
                                               MPI_Errhandler *errhandler);
COMM_MPI_API int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
                                                MPI_Errhandler *errhandler);
COMM_MPI_API int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
COMM_MPI_API int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
COMM_MPI_API int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler);
COMM_MPI_API int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler);
COMM_MPI_API int MPI_Session_call_errhandler(MPI_Session session, int errorcode);
COMM_MPI_API int PMPI_Session_call_errhandler(MPI_Session session, int errorcode);

/* ---- One-sided communication (rma/, runtime/api/win.c, runtime/api/rma.c) ------------- */
#define MPI_WIN_NULL ((MPI_Win)0x150)
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out,
                                       int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *error_code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function *)0)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function *)0)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function *)1)
/* Predefined window attributes. */
enum {
    MPI_WIN_BASE = 0x1010,
    MPI_WIN_SIZE = 0x1011,
    MPI_WIN_DISP_UNIT = 0x1012,
    MPI_WIN_CREATE_FLAVOR = 0x1013,
    MPI_WIN_MODEL = 0x1014,
};
enum {
    MPI_WIN_FLAVOR_CREATE = 1,
    MPI_WIN_FLAVOR_ALLOCATE = 2,
    MPI_WIN_FLAVOR_DYNAMIC = 3,
    MPI_WIN_FLAVOR_SHARED = 4,
};
enum { MPI_WIN_SEPARATE = 1, MPI_WIN_UNIFIED = 2 };
/* Assertions (bits). */
enum {
    MPI_MODE_NOCHECK = 1024,
    MPI_MODE_NOSTORE = 2048,
    MPI_MODE_NOPUT = 4096,
    MPI_MODE_NOPRECEDE = 8192,
    MPI_MODE_NOSUCCEED = 16384,
};
enum { MPI_LOCK_EXCLUSIVE = 234, MPI_LOCK_SHARED = 235 };

#define COMM_DECLARE(ret, name, args) COMM_MPI_API ret MPI_##name args; COMM_MPI_API ret PMPI_##name args
COMM_DECLARE(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                               MPI_Comm comm, MPI_Win *win));
COMM_DECLARE(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                 void *baseptr, MPI_Win *win));
COMM_DECLARE(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info,
                                        MPI_Comm comm, void *baseptr, MPI_Win *win));
COMM_DECLARE(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
                                     void *baseptr));
COMM_DECLARE(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win));
COMM_DECLARE(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size));
COMM_DECLARE(int, Win_detach, (MPI_Win win, const void *base));
COMM_DECLARE(int, Win_free, (MPI_Win *win));
COMM_DECLARE(int, Win_get_group, (MPI_Win win, MPI_Group *group));
COMM_DECLARE(int, Win_set_info, (MPI_Win win, MPI_Info info));
COMM_DECLARE(int, Win_get_info, (MPI_Win win, MPI_Info *info_used));
COMM_DECLARE(int, Win_set_name, (MPI_Win win, const char *win_name));
COMM_DECLARE(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen));
COMM_DECLARE(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn,
                                      MPI_Win_delete_attr_function *win_delete_attr_fn,
                                      int *win_keyval, void *extra_state));
COMM_DECLARE(int, Win_free_keyval, (int *win_keyval));
COMM_DECLARE(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val));
COMM_DECLARE(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag));
COMM_DECLARE(int, Win_delete_attr, (MPI_Win win, int win_keyval));
COMM_DECLARE(int, Win_create_errhandler, (MPI_Win_errhandler_function *win_errhandler_fn,
                                          MPI_Errhandler *errhandler));
COMM_DECLARE(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler));
COMM_DECLARE(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler));
COMM_DECLARE(int, Win_call_errhandler, (MPI_Win win, int errorcode));
COMM_DECLARE(MPI_Fint, Win_c2f, (MPI_Win win));
COMM_DECLARE(MPI_Win, Win_f2c, (MPI_Fint win));
COMM_DECLARE(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win));
COMM_DECLARE(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win));
COMM_DECLARE(int, Accumulate, (const void *origin_addr, int origin_count,
                               MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count,
                               MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
COMM_DECLARE(int, Get_accumulate, (const void *origin_addr, int origin_count,
                                   MPI_Datatype origin_datatype, void *result_addr,
                                   int result_count, MPI_Datatype result_datatype,
                                   int target_rank, MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
COMM_DECLARE(int, Fetch_and_op, (const void *origin_addr, void *result_addr,
                                 MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                                 MPI_Op op, MPI_Win win));
COMM_DECLARE(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr,
                                     void *result_addr, MPI_Datatype datatype, int target_rank,
                                     MPI_Aint target_disp, MPI_Win win));
COMM_DECLARE(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
COMM_DECLARE(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
COMM_DECLARE(int, Raccumulate, (const void *origin_addr, int origin_count,
                                MPI_Datatype origin_datatype, int target_rank,
                                MPI_Aint target_disp, int target_count,
                                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                                MPI_Request *request));
COMM_DECLARE(int, Rget_accumulate, (const void *origin_addr, int origin_count,
                                    MPI_Datatype origin_datatype, void *result_addr,
                                    int result_count, MPI_Datatype result_datatype,
                                    int target_rank, MPI_Aint target_disp, int target_count,
                                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                                    MPI_Request *request));
COMM_DECLARE(int, Win_fence, (int assert, MPI_Win win));
COMM_DECLARE(int, Win_post, (MPI_Group group, int assert, MPI_Win win));
COMM_DECLARE(int, Win_start, (MPI_Group group, int assert, MPI_Win win));
COMM_DECLARE(int, Win_complete, (MPI_Win win));
COMM_DECLARE(int, Win_wait, (MPI_Win win));
COMM_DECLARE(int, Win_test, (MPI_Win win, int *flag));
COMM_DECLARE(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win));
COMM_DECLARE(int, Win_unlock, (int rank, MPI_Win win));
COMM_DECLARE(int, Win_lock_all, (int assert, MPI_Win win));
COMM_DECLARE(int, Win_unlock_all, (MPI_Win win));
COMM_DECLARE(int, Win_flush, (int rank, MPI_Win win));
COMM_DECLARE(int, Win_flush_all, (MPI_Win win));
COMM_DECLARE(int, Win_flush_local, (int rank, MPI_Win win));
COMM_DECLARE(int, Win_flush_local_all, (MPI_Win win));
COMM_DECLARE(int, Win_sync, (MPI_Win win));
#undef COMM_DECLARE

#ifdef __cplusplus
}
#endif

#endif
