/* Mesh import (issue 7): Gmsh .msh 2.2 and 4.1 and the same mesh exported by
 * Gmsh as .inp give the same model (10-node tetrahedron node order); a
 * hand-written Abaqus/CalculiX input with sets, sections, masses, couplings
 * and supports; the same Nastran model in small, large and free field;
 * errors name the line; thousands of random mutations of every sample never
 * crash a reader. The samples were made with Gmsh 4.8 (box 2 × 1 × 1, second
 * order, physical volume PART and surface FIXED). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motus/fe.h"
#include "mt_fe_asm.h"
#include "mt_fe_reduce.h"
#include "motus/mesh.h"
#include "mt_test.h"

static const char TINY_MSH2[] =
    "$MeshFormat\n"
    "2.2 0 8\n"
    "$EndMeshFormat\n"
    "$PhysicalNames\n"
    "2\n"
    "2 2 \"FIXED\"\n"
    "3 1 \"PART\"\n"
    "$EndPhysicalNames\n"
    "$Nodes\n"
    "106\n"
    "1 0 0 1\n"
    "2 0 0 0\n"
    "3 0 1 1\n"
    "4 0 1 0\n"
    "5 2 0 1\n"
    "6 2 0 0\n"
    "7 2 1 1\n"
    "8 2 1 0\n"
    "9 0 0 0.4999999999999999\n"
    "10 0 0.4999999999999999 1\n"
    "11 0 1 0.4999999999999999\n"
    "12 0 0.4999999999999999 0\n"
    "13 2 0 0.4999999999999999\n"
    "14 2 0.4999999999999999 1\n"
    "15 2 1 0.4999999999999999\n"
    "16 2 0.4999999999999999 0\n"
    "17 0.9999999999999976 0 0\n"
    "18 0.4999999999999987 0 0\n"
    "19 1.499999999999999 0 0\n"
    "20 0.9999999999999976 0 1\n"
    "21 0.4999999999999987 0 1\n"
    "22 1.499999999999999 0 1\n"
    "23 0.9999999999999976 1 0\n"
    "24 0.4999999999999987 1 0\n"
    "25 1.499999999999999 1 0\n"
    "26 0.9999999999999976 1 1\n"
    "27 0.4999999999999987 1 1\n"
    "28 1.499999999999999 1 1\n"
    "29 0 0.5 0.5\n"
    "30 0 0.25 0.75\n"
    "31 0 0.25 0.25\n"
    "32 0 0.75 0.75\n"
    "33 0 0.75 0.25\n"
    "34 2 0.5 0.5\n"
    "35 2 0.25 0.25\n"
    "36 2 0.25 0.75\n"
    "37 2 0.75 0.75\n"
    "38 2 0.75 0.25\n"
    "39 1.499999999999999 0 0.5\n"
    "40 0.4999999999999988 0 0.5\n"
    "41 0.2499999999999994 0 0.25\n"
    "42 0.2499999999999994 0 0.75\n"
    "43 0.7499999999999982 0 0.75\n"
    "44 0.7499999999999982 0 0.25\n"
    "45 1.75 0 0.75\n"
    "46 1.75 0 0.25\n"
    "47 1.249999999999998 0 0.75\n"
    "48 1.249999999999998 0 0.25\n"
    "49 0.9999999999999976 0 0.5\n"
    "50 1.499999999999999 1 0.5\n"
    "51 0.4999999999999988 1 0.5\n"
    "52 0.2499999999999994 1 0.75\n"
    "53 0.2499999999999994 1 0.25\n"
    "54 0.7499999999999982 1 0.75\n"
    "55 0.7499999999999982 1 0.25\n"
    "56 1.749999999999999 1 0.25\n"
    "57 1.749999999999999 1 0.75\n"
    "58 1.249999999999998 1 0.75\n"
    "59 1.249999999999998 1 0.25\n"
    "60 0.9999999999999987 1 0.5\n"
    "61 1.499999999999999 0.5 0\n"
    "62 0.4999999999999988 0.5 0\n"
    "63 0.2499999999999994 0.75 0\n"
    "64 0.2499999999999994 0.25 0\n"
    "65 0.7499999999999982 0.25 0\n"
    "66 0.7499999999999982 0.75 0\n"
    "67 1.749999999999999 0.25 0\n"
    "68 1.749999999999999 0.75 0\n"
    "69 1.249999999999998 0.25 0\n"
    "70 1.249999999999998 0.75 0\n"
    "71 0.9999999999999987 0.5 0\n"
    "72 1.499999999999999 0.5 1\n"
    "73 0.4999999999999988 0.5 1\n"
    "74 0.2499999999999994 0.25 1\n"
    "75 0.2499999999999994 0.75 1\n"
    "76 0.7499999999999982 0.25 1\n"
    "77 0.7499999999999982 0.75 1\n"
    "78 1.75 0.75 1\n"
    "79 1.75 0.25 1\n"
    "80 1.249999999999998 0.25 1\n"
    "81 1.249999999999998 0.75 1\n"
    "82 0.9999999999999976 0.5 1\n"
    "83 0.4999999999999988 0.25 0.25\n"
    "84 0.4999999999999988 0.25 0.75\n"
    "85 0.4999999999999988 0.5 0.5\n"
    "86 0.7499999999999982 0.25 0.5\n"
    "87 1.499999999999999 0.25 0.75\n"
    "88 1.499999999999999 0.75 0.75\n"
    "89 1.249999999999998 0.5 0.75\n"
    "90 1.499999999999999 0.5 0.5\n"
    "91 0.4999999999999988 0.75 0.25\n"
    "92 0.7499999999999982 0.5 0.25\n"
    "93 0.4999999999999988 0.75 0.75\n"
    "94 0.9999999999999987 0.75 0.75\n"
    "95 1.249999999999998 0.5 0.25\n"
    "96 1.499999999999999 0.75 0.25\n"
    "97 1.499999999999999 0.25 0.25\n"
    "98 0.9999999999999987 0.75 0.25\n"
    "99 0.2499999999999994 0.5 0.75\n"
    "100 0.2499999999999994 0.25 0.5\n"
    "101 0.2499999999999994 0.5 0.25\n"
    "102 1.75 0.5 0.75\n"
    "103 1.75 0.25 0.5\n"
    "104 1.749999999999999 0.75 0.5\n"
    "105 0.2499999999999994 0.75 0.5\n"
    "106 1.749999999999999 0.5 0.25\n"
    "$EndNodes\n"
    "$Elements\n"
    "47\n"
    "1 9 2 2 1 2 1 29 9 30 31\n"
    "2 9 2 2 1 1 3 29 10 32 30\n"
    "3 9 2 2 1 4 2 29 12 31 33\n"
    "4 9 2 2 1 3 4 29 11 33 32\n"
    "5 11 2 1 1 40 17 62 73 44 65 83 84 85 86\n"
    "6 11 2 1 1 40 17 73 20 44 86 84 43 76 49\n"
    "7 11 2 1 1 72 39 20 50 87 47 80 88 89 90\n"
    "8 11 2 1 1 51 62 17 73 91 65 92 93 86 85\n"
    "9 11 2 1 1 26 73 51 50 77 93 54 58 60 94\n"
    "10 11 2 1 1 73 17 51 50 86 92 93 94 60 95\n"
    "11 11 2 1 1 50 39 17 61 90 48 95 96 69 97\n"
    "12 11 2 1 1 20 17 73 50 49 86 76 89 94 95\n"
    "13 11 2 1 1 20 26 50 73 82 58 89 76 94 77\n"
    "14 11 2 1 1 17 20 39 50 49 47 48 95 90 89\n"
    "15 11 2 1 1 26 20 50 72 82 89 58 81 88 80\n"
    "16 11 2 1 1 61 62 50 23 71 98 96 70 59 66\n"
    "17 11 2 1 1 62 23 51 50 66 55 91 98 60 59\n"
    "18 11 2 1 1 51 17 62 50 92 65 91 60 98 95\n"
    "19 11 2 1 1 62 61 50 17 71 96 98 65 95 69\n"
    "20 11 2 1 1 73 62 40 29 85 83 84 99 100 101\n"
    "21 11 2 1 1 72 34 39 50 102 103 87 88 90 104\n"
    "22 11 2 1 1 39 20 5 72 47 22 45 87 79 80\n"
    "23 11 2 1 1 73 51 62 29 93 91 85 99 101 105\n"
    "24 11 2 1 1 40 2 1 29 41 9 42 100 30 31\n"
    "25 11 2 1 1 1 3 73 29 10 75 74 30 99 32\n"
    "26 11 2 1 1 50 34 39 61 104 103 90 96 97 106\n"
    "27 11 2 1 1 72 5 34 7 79 36 102 78 37 14\n"
    "28 11 2 1 1 39 34 5 6 103 36 45 46 13 35\n"
    "29 11 2 1 1 40 73 1 20 84 74 42 43 21 76\n"
    "30 11 2 1 1 73 40 1 29 84 42 74 99 30 100\n"
    "31 11 2 1 1 5 34 39 72 36 103 45 79 87 102\n"
    "32 11 2 1 1 72 26 7 50 81 28 78 88 57 58\n"
    "33 11 2 1 1 61 39 17 6 97 48 69 67 19 46\n"
    "34 11 2 1 1 4 2 62 29 12 64 63 33 101 31\n"
    "35 11 2 1 1 4 51 3 29 53 52 11 33 32 105\n"
    "36 11 2 1 1 50 7 34 8 57 37 104 56 38 15\n"
    "37 11 2 1 1 61 8 34 6 68 38 106 67 35 16\n"
    "38 11 2 1 1 2 40 17 62 41 44 18 64 65 83\n"
    "39 11 2 1 1 3 73 51 26 75 93 52 27 54 77\n"
    "40 11 2 1 1 34 72 7 50 102 78 37 104 57 88\n"
    "41 11 2 1 1 61 34 39 6 106 103 97 67 46 35\n"
    "42 11 2 1 1 2 40 62 29 41 83 64 31 101 100\n"
    "43 11 2 1 1 51 73 3 29 93 75 52 105 32 99\n"
    "44 11 2 1 1 8 50 23 61 56 59 25 68 70 96\n"
    "45 11 2 1 1 62 23 4 51 66 24 63 91 53 55\n"
    "46 11 2 1 1 34 50 8 61 104 56 38 106 68 96\n"
    "47 11 2 1 1 51 4 62 29 53 63 91 105 101 33\n"
    "$EndElements\n";
static const char TINY_MSH4[] =
    "$MeshFormat\n"
    "4.1 0 8\n"
    "$EndMeshFormat\n"
    "$PhysicalNames\n"
    "2\n"
    "2 2 \"FIXED\"\n"
    "3 1 \"PART\"\n"
    "$EndPhysicalNames\n"
    "$Entities\n"
    "8 12 6 1\n"
    "1 0 0 1 0 \n"
    "2 0 0 0 0 \n"
    "3 0 1 1 0 \n"
    "4 0 1 0 0 \n"
    "5 2 0 1 0 \n"
    "6 2 0 0 0 \n"
    "7 2 1 1 0 \n"
    "8 2 1 0 0 \n"
    "1 -1e-07 -1e-07 -9.999999994736442e-08 1e-07 1e-07 1.0000001 0 2 2 -1 \n"
    "2 -1e-07 -9.999999994736442e-08 0.9999999000000001 1e-07 1.0000001 1.0000001 0 2 1 -3 \n"
    "3 -1e-07 0.9999999000000001 -9.999999994736442e-08 1e-07 1.0000001 1.0000001 0 2 4 -3 \n"
    "4 -1e-07 -9.999999994736442e-08 -1e-07 1e-07 1.0000001 1e-07 0 2 2 -4 \n"
    "5 1.9999999 -1e-07 -9.999999994736442e-08 2.0000001 1e-07 1.0000001 0 2 6 -5 \n"
    "6 1.9999999 -9.999999994736442e-08 0.9999999000000001 2.0000001 1.0000001 1.0000001 0 2 5 -7 \n"
    "7 1.9999999 0.9999999000000001 -9.999999994736442e-08 2.0000001 1.0000001 1.0000001 0 2 8 -7 \n"
    "8 1.9999999 -9.999999994736442e-08 -1e-07 2.0000001 1.0000001 1e-07 0 2 6 -8 \n"
    "9 -9.999999994736442e-08 -1e-07 -1e-07 2.0000001 1e-07 1e-07 0 2 2 -6 \n"
    "10 -9.999999994736442e-08 -1e-07 0.9999999000000001 2.0000001 1e-07 1.0000001 0 2 1 -5 \n"
    "11 -9.999999994736442e-08 0.9999999000000001 -1e-07 2.0000001 1.0000001 1e-07 0 2 4 -8 \n"
    "12 -9.999999994736442e-08 0.9999999000000001 0.9999999000000001 2.0000001 1.0000001 1.0000001 0 2 3 -7 \n"
    "1 -1e-07 -9.999999994736442e-08 -9.999999994736442e-08 1e-07 1.0000001 1.0000001 1 2 4 1 2 -3 -4 \n"
    "2 1.9999999 -9.999999994736442e-08 -9.999999994736442e-08 2.0000001 1.0000001 1.0000001 0 4 5 6 -7 -8 \n"
    "3 -9.999999994736442e-08 -1e-07 -9.999999994736442e-08 2.0000001 1e-07 1.0000001 0 4 9 5 -10 -1 \n"
    "4 -9.999999994736442e-08 0.9999999000000001 -9.999999994736442e-08 2.0000001 1.0000001 1.0000001 0 4 11 7 -12 -3 \n"
    "5 -9.999999994736442e-08 -9.999999994736442e-08 -1e-07 2.0000001 1.0000001 1e-07 0 4 4 11 -8 -9 \n"
    "6 -9.999999994736442e-08 -9.999999994736442e-08 0.9999999000000001 2.0000001 1.0000001 1.0000001 0 4 2 12 -6 -10 \n"
    "1 -9.999999994736442e-08 -9.999999994736442e-08 -9.999999994736442e-08 2.0000001 1.0000001 1.0000001 1 1 6 1 2 3 4 5 6 \n"
    "$EndEntities\n"
    "$Nodes\n"
    "27 106 1 106\n"
    "0 1 0 1\n"
    "1\n"
    "0 0 1\n"
    "0 2 0 1\n"
    "2\n"
    "0 0 0\n"
    "0 3 0 1\n"
    "3\n"
    "0 1 1\n"
    "0 4 0 1\n"
    "4\n"
    "0 1 0\n"
    "0 5 0 1\n"
    "5\n"
    "2 0 1\n"
    "0 6 0 1\n"
    "6\n"
    "2 0 0\n"
    "0 7 0 1\n"
    "7\n"
    "2 1 1\n"
    "0 8 0 1\n"
    "8\n"
    "2 1 0\n"
    "1 1 0 1\n"
    "9\n"
    "0 0 0.4999999999999999\n"
    "1 2 0 1\n"
    "10\n"
    "0 0.4999999999999999 1\n"
    "1 3 0 1\n"
    "11\n"
    "0 1 0.4999999999999999\n"
    "1 4 0 1\n"
    "12\n"
    "0 0.4999999999999999 0\n"
    "1 5 0 1\n"
    "13\n"
    "2 0 0.4999999999999999\n"
    "1 6 0 1\n"
    "14\n"
    "2 0.4999999999999999 1\n"
    "1 7 0 1\n"
    "15\n"
    "2 1 0.4999999999999999\n"
    "1 8 0 1\n"
    "16\n"
    "2 0.4999999999999999 0\n"
    "1 9 0 3\n"
    "17\n"
    "18\n"
    "19\n"
    "0.9999999999999976 0 0\n"
    "0.4999999999999987 0 0\n"
    "1.499999999999999 0 0\n"
    "1 10 0 3\n"
    "20\n"
    "21\n"
    "22\n"
    "0.9999999999999976 0 1\n"
    "0.4999999999999987 0 1\n"
    "1.499999999999999 0 1\n"
    "1 11 0 3\n"
    "23\n"
    "24\n"
    "25\n"
    "0.9999999999999976 1 0\n"
    "0.4999999999999987 1 0\n"
    "1.499999999999999 1 0\n"
    "1 12 0 3\n"
    "26\n"
    "27\n"
    "28\n"
    "0.9999999999999976 1 1\n"
    "0.4999999999999987 1 1\n"
    "1.499999999999999 1 1\n"
    "2 1 0 5\n"
    "29\n"
    "30\n"
    "31\n"
    "32\n"
    "33\n"
    "0 0.5 0.5\n"
    "0 0.25 0.75\n"
    "0 0.25 0.25\n"
    "0 0.75 0.75\n"
    "0 0.75 0.25\n"
    "2 2 0 5\n"
    "34\n"
    "35\n"
    "36\n"
    "37\n"
    "38\n"
    "2 0.5 0.5\n"
    "2 0.25 0.25\n"
    "2 0.25 0.75\n"
    "2 0.75 0.75\n"
    "2 0.75 0.25\n"
    "2 3 0 11\n"
    "39\n"
    "40\n"
    "41\n"
    "42\n"
    "43\n"
    "44\n"
    "45\n"
    "46\n"
    "47\n"
    "48\n"
    "49\n"
    "1.499999999999999 0 0.5\n"
    "0.4999999999999988 0 0.5\n"
    "0.2499999999999994 0 0.25\n"
    "0.2499999999999994 0 0.75\n"
    "0.7499999999999982 0 0.75\n"
    "0.7499999999999982 0 0.25\n"
    "1.75 0 0.75\n"
    "1.75 0 0.25\n"
    "1.249999999999998 0 0.75\n"
    "1.249999999999998 0 0.25\n"
    "0.9999999999999976 0 0.5\n"
    "2 4 0 11\n"
    "50\n"
    "51\n"
    "52\n"
    "53\n"
    "54\n"
    "55\n"
    "56\n"
    "57\n"
    "58\n"
    "59\n"
    "60\n"
    "1.499999999999999 1 0.5\n"
    "0.4999999999999988 1 0.5\n"
    "0.2499999999999994 1 0.75\n"
    "0.2499999999999994 1 0.25\n"
    "0.7499999999999982 1 0.75\n"
    "0.7499999999999982 1 0.25\n"
    "1.749999999999999 1 0.25\n"
    "1.749999999999999 1 0.75\n"
    "1.249999999999998 1 0.75\n"
    "1.249999999999998 1 0.25\n"
    "0.9999999999999987 1 0.5\n"
    "2 5 0 11\n"
    "61\n"
    "62\n"
    "63\n"
    "64\n"
    "65\n"
    "66\n"
    "67\n"
    "68\n"
    "69\n"
    "70\n"
    "71\n"
    "1.499999999999999 0.5 0\n"
    "0.4999999999999988 0.5 0\n"
    "0.2499999999999994 0.75 0\n"
    "0.2499999999999994 0.25 0\n"
    "0.7499999999999982 0.25 0\n"
    "0.7499999999999982 0.75 0\n"
    "1.749999999999999 0.25 0\n"
    "1.749999999999999 0.75 0\n"
    "1.249999999999998 0.25 0\n"
    "1.249999999999998 0.75 0\n"
    "0.9999999999999987 0.5 0\n"
    "2 6 0 11\n"
    "72\n"
    "73\n"
    "74\n"
    "75\n"
    "76\n"
    "77\n"
    "78\n"
    "79\n"
    "80\n"
    "81\n"
    "82\n"
    "1.499999999999999 0.5 1\n"
    "0.4999999999999988 0.5 1\n"
    "0.2499999999999994 0.25 1\n"
    "0.2499999999999994 0.75 1\n"
    "0.7499999999999982 0.25 1\n"
    "0.7499999999999982 0.75 1\n"
    "1.75 0.75 1\n"
    "1.75 0.25 1\n"
    "1.249999999999998 0.25 1\n"
    "1.249999999999998 0.75 1\n"
    "0.9999999999999976 0.5 1\n"
    "3 1 0 24\n"
    "83\n"
    "84\n"
    "85\n"
    "86\n"
    "87\n"
    "88\n"
    "89\n"
    "90\n"
    "91\n"
    "92\n"
    "93\n"
    "94\n"
    "95\n"
    "96\n"
    "97\n"
    "98\n"
    "99\n"
    "100\n"
    "101\n"
    "102\n"
    "103\n"
    "104\n"
    "105\n"
    "106\n"
    "0.4999999999999988 0.25 0.25\n"
    "0.4999999999999988 0.25 0.75\n"
    "0.4999999999999988 0.5 0.5\n"
    "0.7499999999999982 0.25 0.5\n"
    "1.499999999999999 0.25 0.75\n"
    "1.499999999999999 0.75 0.75\n"
    "1.249999999999998 0.5 0.75\n"
    "1.499999999999999 0.5 0.5\n"
    "0.4999999999999988 0.75 0.25\n"
    "0.7499999999999982 0.5 0.25\n"
    "0.4999999999999988 0.75 0.75\n"
    "0.9999999999999987 0.75 0.75\n"
    "1.249999999999998 0.5 0.25\n"
    "1.499999999999999 0.75 0.25\n"
    "1.499999999999999 0.25 0.25\n"
    "0.9999999999999987 0.75 0.25\n"
    "0.2499999999999994 0.5 0.75\n"
    "0.2499999999999994 0.25 0.5\n"
    "0.2499999999999994 0.5 0.25\n"
    "1.75 0.5 0.75\n"
    "1.75 0.25 0.5\n"
    "1.749999999999999 0.75 0.5\n"
    "0.2499999999999994 0.75 0.5\n"
    "1.749999999999999 0.5 0.25\n"
    "$EndNodes\n"
    "$Elements\n"
    "2 47 1 47\n"
    "2 1 9 4\n"
    "1 2 1 29 9 30 31 \n"
    "2 1 3 29 10 32 30 \n"
    "3 4 2 29 12 31 33 \n"
    "4 3 4 29 11 33 32 \n"
    "3 1 11 43\n"
    "5 40 17 62 73 44 65 83 84 85 86 \n"
    "6 40 17 73 20 44 86 84 43 76 49 \n"
    "7 72 39 20 50 87 47 80 88 89 90 \n"
    "8 51 62 17 73 91 65 92 93 86 85 \n"
    "9 26 73 51 50 77 93 54 58 60 94 \n"
    "10 73 17 51 50 86 92 93 94 60 95 \n"
    "11 50 39 17 61 90 48 95 96 69 97 \n"
    "12 20 17 73 50 49 86 76 89 94 95 \n"
    "13 20 26 50 73 82 58 89 76 94 77 \n"
    "14 17 20 39 50 49 47 48 95 90 89 \n"
    "15 26 20 50 72 82 89 58 81 88 80 \n"
    "16 61 62 50 23 71 98 96 70 59 66 \n"
    "17 62 23 51 50 66 55 91 98 60 59 \n"
    "18 51 17 62 50 92 65 91 60 98 95 \n"
    "19 62 61 50 17 71 96 98 65 95 69 \n"
    "20 73 62 40 29 85 83 84 99 100 101 \n"
    "21 72 34 39 50 102 103 87 88 90 104 \n"
    "22 39 20 5 72 47 22 45 87 79 80 \n"
    "23 73 51 62 29 93 91 85 99 101 105 \n"
    "24 40 2 1 29 41 9 42 100 30 31 \n"
    "25 1 3 73 29 10 75 74 30 99 32 \n"
    "26 50 34 39 61 104 103 90 96 97 106 \n"
    "27 72 5 34 7 79 36 102 78 37 14 \n"
    "28 39 34 5 6 103 36 45 46 13 35 \n"
    "29 40 73 1 20 84 74 42 43 21 76 \n"
    "30 73 40 1 29 84 42 74 99 30 100 \n"
    "31 5 34 39 72 36 103 45 79 87 102 \n"
    "32 72 26 7 50 81 28 78 88 57 58 \n"
    "33 61 39 17 6 97 48 69 67 19 46 \n"
    "34 4 2 62 29 12 64 63 33 101 31 \n"
    "35 4 51 3 29 53 52 11 33 32 105 \n"
    "36 50 7 34 8 57 37 104 56 38 15 \n"
    "37 61 8 34 6 68 38 106 67 35 16 \n"
    "38 2 40 17 62 41 44 18 64 65 83 \n"
    "39 3 73 51 26 75 93 52 27 54 77 \n"
    "40 34 72 7 50 102 78 37 104 57 88 \n"
    "41 61 34 39 6 106 103 97 67 46 35 \n"
    "42 2 40 62 29 41 83 64 31 101 100 \n"
    "43 51 73 3 29 93 75 52 105 32 99 \n"
    "44 8 50 23 61 56 59 25 68 70 96 \n"
    "45 62 23 4 51 66 24 63 91 53 55 \n"
    "46 34 50 8 61 104 56 38 106 68 96 \n"
    "47 51 4 62 29 53 63 91 105 101 33 \n"
    "$EndElements\n";
static const char TINY_INP[] =
    "*Heading\n"
    " tiny.inp\n"
    "*NODE\n"
    "1, 0, 0, 1\n"
    "2, 0, 0, 0\n"
    "3, 0, 1, 1\n"
    "4, 0, 1, 0\n"
    "5, 2, 0, 1\n"
    "6, 2, 0, 0\n"
    "7, 2, 1, 1\n"
    "8, 2, 1, 0\n"
    "9, 0, 0, 0.5\n"
    "10, 0, 0.5, 1\n"
    "11, 0, 1, 0.5\n"
    "12, 0, 0.5, 0\n"
    "13, 2, 0, 0.5\n"
    "14, 2, 0.5, 1\n"
    "15, 2, 1, 0.5\n"
    "16, 2, 0.5, 0\n"
    "17, 1, 0, 0\n"
    "18, 0.5, 0, 0\n"
    "19, 1.5, 0, 0\n"
    "20, 1, 0, 1\n"
    "21, 0.5, 0, 1\n"
    "22, 1.5, 0, 1\n"
    "23, 1, 1, 0\n"
    "24, 0.5, 1, 0\n"
    "25, 1.5, 1, 0\n"
    "26, 1, 1, 1\n"
    "27, 0.5, 1, 1\n"
    "28, 1.5, 1, 1\n"
    "29, 0, 0.5, 0.5\n"
    "30, 0, 0.25, 0.75\n"
    "31, 0, 0.25, 0.25\n"
    "32, 0, 0.75, 0.75\n"
    "33, 0, 0.75, 0.25\n"
    "34, 2, 0.5, 0.5\n"
    "35, 2, 0.25, 0.25\n"
    "36, 2, 0.25, 0.75\n"
    "37, 2, 0.75, 0.75\n"
    "38, 2, 0.75, 0.25\n"
    "39, 1.5, 0, 0.5\n"
    "40, 0.5, 0, 0.5\n"
    "41, 0.25, 0, 0.25\n"
    "42, 0.25, 0, 0.75\n"
    "43, 0.75, 0, 0.75\n"
    "44, 0.75, 0, 0.25\n"
    "45, 1.75, 0, 0.75\n"
    "46, 1.75, 0, 0.25\n"
    "47, 1.25, 0, 0.75\n"
    "48, 1.25, 0, 0.25\n"
    "49, 1, 0, 0.5\n"
    "50, 1.5, 1, 0.5\n"
    "51, 0.5, 1, 0.5\n"
    "52, 0.25, 1, 0.75\n"
    "53, 0.25, 1, 0.25\n"
    "54, 0.75, 1, 0.75\n"
    "55, 0.75, 1, 0.25\n"
    "56, 1.75, 1, 0.25\n"
    "57, 1.75, 1, 0.75\n"
    "58, 1.25, 1, 0.75\n"
    "59, 1.25, 1, 0.25\n"
    "60, 1, 1, 0.5\n"
    "61, 1.5, 0.5, 0\n"
    "62, 0.5, 0.5, 0\n"
    "63, 0.25, 0.75, 0\n"
    "64, 0.25, 0.25, 0\n"
    "65, 0.75, 0.25, 0\n"
    "66, 0.75, 0.75, 0\n"
    "67, 1.75, 0.25, 0\n"
    "68, 1.75, 0.75, 0\n"
    "69, 1.25, 0.25, 0\n"
    "70, 1.25, 0.75, 0\n"
    "71, 1, 0.5, 0\n"
    "72, 1.5, 0.5, 1\n"
    "73, 0.5, 0.5, 1\n"
    "74, 0.25, 0.25, 1\n"
    "75, 0.25, 0.75, 1\n"
    "76, 0.75, 0.25, 1\n"
    "77, 0.75, 0.75, 1\n"
    "78, 1.75, 0.75, 1\n"
    "79, 1.75, 0.25, 1\n"
    "80, 1.25, 0.25, 1\n"
    "81, 1.25, 0.75, 1\n"
    "82, 1, 0.5, 1\n"
    "83, 0.5, 0.25, 0.25\n"
    "84, 0.5, 0.25, 0.75\n"
    "85, 0.5, 0.5, 0.5\n"
    "86, 0.75, 0.25, 0.5\n"
    "87, 1.5, 0.25, 0.75\n"
    "88, 1.5, 0.75, 0.75\n"
    "89, 1.25, 0.5, 0.75\n"
    "90, 1.5, 0.5, 0.5\n"
    "91, 0.5, 0.75, 0.25\n"
    "92, 0.75, 0.5, 0.25\n"
    "93, 0.5, 0.75, 0.75\n"
    "94, 1, 0.75, 0.75\n"
    "95, 1.25, 0.5, 0.25\n"
    "96, 1.5, 0.75, 0.25\n"
    "97, 1.5, 0.25, 0.25\n"
    "98, 1, 0.75, 0.25\n"
    "99, 0.25, 0.5, 0.75\n"
    "100, 0.25, 0.25, 0.5\n"
    "101, 0.25, 0.5, 0.25\n"
    "102, 1.75, 0.5, 0.75\n"
    "103, 1.75, 0.25, 0.5\n"
    "104, 1.75, 0.75, 0.5\n"
    "105, 0.25, 0.75, 0.5\n"
    "106, 1.75, 0.5, 0.25\n"
    "******* E L E M E N T S *************\n"
    "*ELEMENT, type=CPS6, ELSET=Surface1\n"
    "1, 2, 1, 29, 9, 30, 31\n"
    "2, 1, 3, 29, 10, 32, 30\n"
    "3, 4, 2, 29, 12, 31, 33\n"
    "4, 3, 4, 29, 11, 33, 32\n"
    "*ELEMENT, type=C3D10, ELSET=Volume1\n"
    "5, 40, 17, 62, 73, 44, 65, 83, 84, 86, 85\n"
    "6, 40, 17, 73, 20, 44, 86, 84, 43, 49, 76\n"
    "7, 72, 39, 20, 50, 87, 47, 80, 88, 90, 89\n"
    "8, 51, 62, 17, 73, 91, 65, 92, 93, 85, 86\n"
    "9, 26, 73, 51, 50, 77, 93, 54, 58, 94, 60\n"
    "10, 73, 17, 51, 50, 86, 92, 93, 94, 95, 60\n"
    "11, 50, 39, 17, 61, 90, 48, 95, 96, 97, 69\n"
    "12, 20, 17, 73, 50, 49, 86, 76, 89, 95, 94\n"
    "13, 20, 26, 50, 73, 82, 58, 89, 76, 77, 94\n"
    "14, 17, 20, 39, 50, 49, 47, 48, 95, 89, 90\n"
    "15, 26, 20, 50, 72, 82, 89, 58, 81, 80, 88\n"
    "16, 61, 62, 50, 23, 71, 98, 96, 70, 66, 59\n"
    "17, 62, 23, 51, 50, 66, 55, 91, 98, 59, 60\n"
    "18, 51, 17, 62, 50, 92, 65, 91, 60, 95, 98\n"
    "19, 62, 61, 50, 17, 71, 96, 98, 65, 69, 95\n"
    "20, 73, 62, 40, 29, 85, 83, 84, 99, 101, 100\n"
    "21, 72, 34, 39, 50, 102, 103, 87, 88, 104, 90\n"
    "22, 39, 20, 5, 72, 47, 22, 45, 87, 80, 79\n"
    "23, 73, 51, 62, 29, 93, 91, 85, 99, 105, 101\n"
    "24, 40, 2, 1, 29, 41, 9, 42, 100, 31, 30\n"
    "25, 1, 3, 73, 29, 10, 75, 74, 30, 32, 99\n"
    "26, 50, 34, 39, 61, 104, 103, 90, 96, 106, 97\n"
    "27, 72, 5, 34, 7, 79, 36, 102, 78, 14, 37\n"
    "28, 39, 34, 5, 6, 103, 36, 45, 46, 35, 13\n"
    "29, 40, 73, 1, 20, 84, 74, 42, 43, 76, 21\n"
    "30, 73, 40, 1, 29, 84, 42, 74, 99, 100, 30\n"
    "31, 5, 34, 39, 72, 36, 103, 45, 79, 102, 87\n"
    "32, 72, 26, 7, 50, 81, 28, 78, 88, 58, 57\n"
    "33, 61, 39, 17, 6, 97, 48, 69, 67, 46, 19\n"
    "34, 4, 2, 62, 29, 12, 64, 63, 33, 31, 101\n"
    "35, 4, 51, 3, 29, 53, 52, 11, 33, 105, 32\n"
    "36, 50, 7, 34, 8, 57, 37, 104, 56, 15, 38\n"
    "37, 61, 8, 34, 6, 68, 38, 106, 67, 16, 35\n"
    "38, 2, 40, 17, 62, 41, 44, 18, 64, 83, 65\n"
    "39, 3, 73, 51, 26, 75, 93, 52, 27, 77, 54\n"
    "40, 34, 72, 7, 50, 102, 78, 37, 104, 88, 57\n"
    "41, 61, 34, 39, 6, 106, 103, 97, 67, 35, 46\n"
    "42, 2, 40, 62, 29, 41, 83, 64, 31, 100, 101\n"
    "43, 51, 73, 3, 29, 93, 75, 52, 105, 99, 32\n"
    "44, 8, 50, 23, 61, 56, 59, 25, 68, 96, 70\n"
    "45, 62, 23, 4, 51, 66, 24, 63, 91, 55, 53\n"
    "46, 34, 50, 8, 61, 104, 56, 38, 106, 96, 68\n"
    "47, 51, 4, 62, 29, 53, 63, 91, 105, 33, 101\n"
    "*ELSET,ELSET=FIXED\n"
    "1, 2, 3, 4, \n"
    "*ELSET,ELSET=PART\n"
    "5, 6, 7, 8, 9, 10, 11, 12, 13, 14, \n"
    "15, 16, 17, 18, 19, 20, 21, 22, 23, 24, \n"
    "25, 26, 27, 28, 29, 30, 31, 32, 33, 34, \n"
    "35, 36, 37, 38, 39, 40, 41, 42, 43, 44, \n"
    "45, 46, 47, \n";

static MtFeModel *read_text(const char *text, const char *name)
{
    MtError err = {0};
    MtFeModel *m = mt_mesh_read_text(text, strlen(text), name, MT_MESH_AUTO, &err);
    if (!m) printf("FAIL read %s: %s\n", name, err.msg);
    return m;
}

/* Lowest 6 elastic free-free frequencies with the default steel. */
static void elastic_freqs(MtFeModel *m, double *f)
{
    MtError err = {0};
    mt_fe_default_props(m, 210e9, 0.3, 7850, 0, &err);
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    o.method = MT_REDUCE_MODES, o.nmodes = 6, o.surface = 0;
    MtFlexBody *b = mt_flex_reduce(m, &o, NULL, &err);
    if (!b) {
        printf("FAIL reduce: %s\n", err.msg);
        for (int k = 0; k < 6; k++) f[k] = NAN;
        return;
    }
    memcpy(f, b->freq, sizeof(double) * 6);
    mt_flex_body_free(b);
}

static void test_gmsh(void)
{
    printf("-- the same Gmsh mesh as .msh 2.2, .msh 4.1 and Gmsh's own .inp export\n");
    MtFeModel *m2 = read_text(TINY_MSH2, "tiny2.msh"), *m4 = read_text(TINY_MSH4, "tiny4.msh");
    MtFeModel *mi = read_text(TINY_INP, "tiny.inp");
    if (!m2 || !m4 || !mi) exit(1);
    CHECK(m2->nnode == 106 && m4->nnode == 106 && mi->nnode == 106, "106 nodes each (%d %d %d)", m2->nnode, m4->nnode,
          mi->nnode);
    int t2 = 0, t4 = 0, ti = 0;
    for (int e = 0; e < m2->nelem; e++) t2 += m2->elem[e].type == MT_FE_TET10;
    for (int e = 0; e < m4->nelem; e++) t4 += m4->elem[e].type == MT_FE_TET10;
    for (int e = 0; e < mi->nelem; e++) ti += mi->elem[e].type == MT_FE_TET10;
    CHECK(t2 == m2->nelem && t4 == m4->nelem && ti == mi->nelem && t2 == t4 && t2 == ti && t2 > 0,
          "only tet10 structural elements, the same number (%d %d %d)", t2, t4, ti);
    int s2 = mt_fe_find_set(m2, "FIXED", MT_FE_SET_NODE), s4 = mt_fe_find_set(m4, "FIXED", MT_FE_SET_NODE);
    int si = mt_fe_find_set(mi, "FIXED", MT_FE_SET_NODE);
    CHECK(s2 >= 0 && s4 >= 0 && si >= 0, "node set FIXED from the physical surface");
    if (s2 >= 0 && s4 >= 0 && si >= 0) {
        int allx0 = 1;
        for (int i = 0; i < m2->set[s2].n; i++) allx0 &= m2->x[3 * m2->setitem[m2->set[s2].first + i]] == 0;
        for (int i = 0; i < mi->set[si].n; i++) allx0 &= mi->x[3 * mi->setitem[mi->set[si].first + i]] == 0;
        CHECK(m2->set[s2].n == 13 && m4->set[s4].n == 13 && mi->set[si].n == 13 && allx0,
              "FIXED holds the 13 nodes of the tri6 face x = 0 (%d %d %d)", m2->set[s2].n, m4->set[s4].n, mi->set[si].n);
    }
    CHECK(mt_fe_find_set(m2, "PART", MT_FE_SET_ELEM) >= 0 && mt_fe_find_set(m4, "PART", MT_FE_SET_ELEM) >= 0,
          "element set PART from the physical volume");
    double f2[6], f4[6], fi[6];
    elastic_freqs(m2, f2);
    elastic_freqs(m4, f4);
    elastic_freqs(mi, fi);
    double d = 0;
    for (int k = 0; k < 6; k++) d = fmax(d, fmax(fabs(f2[k] - fi[k]), fabs(f4[k] - fi[k])) / fi[k]);
    CHECK_ABS(d, 0, 1e-7, "msh 2.2, msh 4.1 and inp give the same frequencies (tet10 node order)"); /* Lanczos converged to ~1e-9; a wrong node order gives percent */
    double mass, s[3], I[9];
    MtError err = {0};
    mt_fe_mass_properties(m2, &mass, s, I, &err);
    CHECK_REL(mass, 2 * 7850, 1e-12, "mass of the 2 x 1 x 1 box");
    mt_fe_model_free(m2), mt_fe_model_free(m4), mt_fe_model_free(mi);
}

static const char INP_SAMPLE[] =
    "*HEADING\n"
    "sample with every kind of element\n"
    "** a comment\n"
    "*NODE, NSET=ALL\n"
    "1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
    "9, 2, 0, 0\n10, 3, 0, 0\n11, 1, 0, -1\n12, 2, 0, -1\n13, 2, 1, -1\n14, 1, 1, -1\n"
    "20, 0.5, 0.5, 1.5\n21, 0.5, 0.5, -0.5\n"
    "*ELEMENT, TYPE=C3D8, ELSET=SOLID\n"
    "1, 1, 2, 3, 4,\n 5, 6, 7, 8\n"
    "*ELEMENT, TYPE=B31, ELSET=BEAMS\n"
    "2, 2, 9\n3, 9, 10\n"
    "*ELEMENT, TYPE=S4R, ELSET=PLATE\n"
    "4, 11, 12, 13, 14\n"
    "*ELEMENT, TYPE=MASS, ELSET=PM\n"
    "5, 10\n"
    "*NSET, NSET=TOP\n"
    "5, 6, 7, 8\n"
    "*NSET, NSET=GEN, GENERATE\n"
    "1, 4, 1\n"
    "*ELSET, ELSET=ALLS\n"
    "SOLID, PLATE\n"
    "*MATERIAL, NAME=STEEL\n"
    "*ELASTIC\n"
    "210e9, 0.3\n"
    "*DENSITY\n"
    "7850.\n"
    "*SOLID SECTION, ELSET=SOLID, MATERIAL=STEEL\n"
    "*BEAM SECTION, ELSET=BEAMS, MATERIAL=STEEL, SECTION=RECT\n"
    "0.05, 0.1\n"
    "0., 1., 0.\n"
    "*SHELL SECTION, ELSET=PLATE, MATERIAL=STEEL\n"
    "0.01\n"
    "*MASS, ELSET=PM\n"
    "12.5\n"
    "*BOUNDARY\n"
    "GEN, 1, 3\n"
    "*RIGID BODY, REF NODE=20, TIE NSET=TOP\n"
    "*SURFACE, TYPE=NODE, NAME=PLATESURF\n"
    "11, 1.\n12\n13\n14\n"
    "*COUPLING, CONSTRAINT NAME=C1, REF NODE=21, SURFACE=PLATESURF\n"
    "*DISTRIBUTING\n"
    "*STEP\n"
    "*FREQUENCY\n"
    "10\n"
    "*END STEP\n";

static void test_inp(void)
{
    printf("-- Abaqus/CalculiX input: elements, sets, sections, masses, supports, couplings\n");
    MtFeModel *m = read_text(INP_SAMPLE, "sample.inp");
    if (!m) exit(1);
    CHECK(m->nnode == 16 && m->nelem == 4, "16 nodes, 4 elements (%d, %d)", m->nnode, m->nelem);
    CHECK(m->elem[0].type == MT_FE_HEX8 && m->elem[1].type == MT_FE_BEAM2 && m->elem[3].type == MT_FE_QUAD4,
          "hex8 (continued line), beams, quad4");
    CHECK(m->nmass == 1 && m->mass[0].m == 12.5 && m->mass[0].node == mt_fe_node_index(m, 10), "point mass 12.5 at node 10");
    int s = mt_fe_find_set(m, "GEN", MT_FE_SET_NODE);
    CHECK(s >= 0 && m->set[s].n == 4, "generated node set GEN of 4 nodes");
    s = mt_fe_find_set(m, "ALLS", MT_FE_SET_ELEM);
    CHECK(s >= 0 && m->set[s].n == 2, "element set ALLS from two sets");
    CHECK(m->nspc == 4 && m->spc[0].mask == MT_FE_TRANS, "four supports in x y z");
    CHECK(m->nrigid == 2 && m->rigid[0].type == MT_FE_RBE2 && m->rigid[0].n == 4 && m->rigid[1].type == MT_FE_RBE3 &&
              m->rigid[1].n == 4,
          "rigid body (RBE2, 4 nodes) and distributing coupling (RBE3, 4 nodes)");
    const MtFeProp *pb = &m->prop[m->elem[1].prop];
    CHECK(pb->kind == MT_FE_PROP_BEAM && fabs(pb->A - 0.005) < 1e-15 && fabs(pb->Iy - 0.05 * 1e-3 / 12) < 1e-18 &&
              pb->v[1] == 1 && pb->ky > 0,
          "beam section RECT 0.05 x 0.1, n1 = (0, 1, 0), B31 shear-flexible");
    CHECK(m->prop[m->elem[3].prop].t == 0.01, "shell thickness 0.01");
    CHECK(!strcmp(m->title, "sample with every kind of element"), "heading '%s'", m->title);
    MtError err = {0};
    CHECK(mt_fe_validate(m, &err) == MT_OK, "the model validates: %s", err.msg);
    mt_fe_model_free(m);
}

/* One model in Nastran small, large and free field. */
typedef struct {
    const char *f[17];
} CardDef;

static const CardDef bdf_cards[] = {
    {{"GRID", "1", "", "0.", "0.", "0."}},
    {{"GRID", "2", "", "1.", "0.", "0."}},
    {{"GRID", "3", "", "0.", "1.", "0."}},
    {{"GRID", "4", "", "0.", "0.", "1."}},
    {{"GRID", "5", "", "1.", "1.", "1."}},
    {{"GRID", "6", "0", "-1.", "0.", "0."}},
    {{"GRID", "7", "", "2.", "0.", "0."}},
    {{"CTETRA", "1", "1", "1", "2", "3", "4"}},
    {{"PSOLID", "1", "1"}},
    {{"MAT1", "1", "2.1+11", "", ".3", "7850."}},
    {{"CONM2", "10", "5", "", "2.5", ".1", "0.", "0.", "", "1.0", "0.", "2.0", "0.", "0.", "3.0"}},
    {{"RBE2", "20", "6", "123456", "1", "2"}},
    {{"CBAR", "3", "2", "2", "7", "0.", "0.", "1."}},
    {{"PBAR", "2", "1", "1.-4", "1.-8", "2.-8", "3.-8"}},
    {{"CQUAD4", "4", "3", "1", "2", "5", "3"}},
    {{"PSHELL", "3", "1", ".005", "1"}},
    {{"SPC1", "1", "123", "1", "THRU", "3"}},
};

static int ndata(const CardDef *c)
{
    int n = 0;
    for (int i = 1; i < 17 && c->f[i]; i++) n = i;
    return n;
}

static void bdf_write(char *out, size_t cap, int fmt)
{
    size_t k = 0;
    k += (size_t)snprintf(out + k, cap - k, "$ sample\nSOL 103\nCEND\nBEGIN BULK\n");
    for (size_t c = 0; c < sizeof bdf_cards / sizeof *bdf_cards; c++) {
        const CardDef *d = &bdf_cards[c];
        int n = ndata(d);
        if (fmt == 0) { /* small: 8 data fields per line */
            k += (size_t)snprintf(out + k, cap - k, "%-8s", d->f[0]);
            for (int i = 1; i <= n; i++) {
                if (i > 1 && (i - 1) % 8 == 0) k += (size_t)snprintf(out + k, cap - k, "\n+       ");
                k += (size_t)snprintf(out + k, cap - k, "%8s", d->f[i]);
            }
        } else if (fmt == 1) { /* large: 4 data fields of 16 per line */
            k += (size_t)snprintf(out + k, cap - k, "%-8s", "");
            k -= 8;
            char nm[16];
            snprintf(nm, sizeof nm, "%s*", d->f[0]);
            k += (size_t)snprintf(out + k, cap - k, "%-8s", nm);
            for (int i = 1; i <= n; i++) {
                if (i > 1 && (i - 1) % 4 == 0) k += (size_t)snprintf(out + k, cap - k, "\n*       ");
                k += (size_t)snprintf(out + k, cap - k, "%-16s", d->f[i]);
            }
        } else { /* free */
            k += (size_t)snprintf(out + k, cap - k, "%s", d->f[0]);
            for (int i = 1; i <= n; i++) {
                if (i > 1 && (i - 1) % 8 == 0) k += (size_t)snprintf(out + k, cap - k, "\n+");
                k += (size_t)snprintf(out + k, cap - k, ",%s", d->f[i]);
            }
        }
        k += (size_t)snprintf(out + k, cap - k, "\n");
    }
    snprintf(out + k, cap - k, "ENDDATA\n");
}

static char BDF[3][4096];

static void test_bdf(void)
{
    printf("-- Nastran bulk data in small, large and free field\n");
    MtFeModel *m[3];
    for (int f = 0; f < 3; f++) {
        bdf_write(BDF[f], sizeof BDF[f], f);
        m[f] = read_text(BDF[f], f == 0 ? "small.bdf" : f == 1 ? "large.bdf" : "free.bdf");
        if (!m[f]) {
            printf("%s", BDF[f]);
            exit(1);
        }
    }
    for (int f = 0; f < 3; f++) {
        MtFeModel *a = m[f];
        const char *nm = f == 0 ? "small" : f == 1 ? "large" : "free";
        CHECK(a->nnode == 7 && a->nelem == 3, "%s: 7 grids, 3 elements (%d, %d)", nm, a->nnode, a->nelem);
        CHECK(a->nmat == 1 && fabs(a->mat[0].E - 2.1e11) < 1 && a->mat[0].nu == 0.3 && a->mat[0].rho == 7850,
              "%s: MAT1 E = 2.1+11, NU = .3", nm);
        CHECK(a->nmass == 1 && a->mass[0].m == 2.5 && a->mass[0].c[0] == 0.1 && a->mass[0].J[1] == 2 && a->mass[0].J[2] == 3,
              "%s: CONM2 with offset and inertia (continuation)", nm);
        CHECK(a->nrigid == 1 && a->rigid[0].n == 2 && a->rigid[0].cm == MT_FE_ALL, "%s: RBE2 with two nodes", nm);
        CHECK(a->nspc == 3, "%s: SPC1 1 THRU 3 (%d)", nm, a->nspc);
        int bar = -1;
        for (int e = 0; e < a->nelem; e++)
            if (a->elem[e].type == MT_FE_BEAM2) bar = e;
        CHECK(bar >= 0 && a->prop[a->elem[bar].prop].Iz == 1e-8 && a->prop[a->elem[bar].prop].Iy == 2e-8 &&
                  a->vec[3 * a->elem[bar].vidx + 2] == 1,
              "%s: CBAR with PBAR I1 = 1.-8 (Iz), I2 (Iy), v = (0, 0, 1)", nm);
        MtError err = {0};
        CHECK(mt_fe_validate(a, &err) == MT_OK, "%s validates: %s", nm, err.msg);
    }
    for (int f = 0; f < 3; f++) mt_fe_model_free(m[f]);
}

static void expect_error(const char *text, const char *name, const char *want)
{
    MtError err = {0};
    MtFeModel *m = mt_mesh_read_text(text, strlen(text), name, MT_MESH_AUTO, &err);
    CHECK(!m && strstr(err.msg, want), "%s: error '%s' contains '%s'", name, err.msg, want);
    mt_fe_model_free(m);
}

static void test_errors(void)
{
    printf("-- malformed files: errors name the line\n");
    expect_error("*NODE\n1, 0, 0, 0\n2, 1, x, 0\n", "a.inp", "a.inp:3:");
    expect_error("*NODE\n1, 0, 0, 0\n*ELEMENT, TYPE=C3D4\n1, 1, 2, 3, 4\n", "b.inp", "b.inp:4:");
    expect_error("*NODE\n1, 0, 0, 0\n*ELEMENT, TYPE=C3D15\n1, 1\n", "c.inp", "C3D15");
    expect_error("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n1 0 0 0\n2 0 0 zz\n$EndNodes\n", "d.msh", "d.msh:7:");
    expect_error("$MeshFormat\n2.2 1 8\n$EndMeshFormat\n", "e.msh", "binary");
    char fb[256];
    snprintf(fb, sizeof fb, "BEGIN BULK\n%-8s%8s%8s%8s%8s%8s\n%-8s%8s%8s%8s%8s%8s%8s\n", "GRID", "1", "", "0.", "0.", "0.",
             "CTETRA", "1", "1", "1", "2", "3", "4");
    expect_error(fb, "f.bdf", "f.bdf:3:");
    expect_error("BEGIN BULK\nGRID,1,,0.,abc,0.\n", "g.bdf", "g.bdf:2:");
    expect_error("GRID,1,5,0.,0.,0.\n", "h.bdf", "coordinate system 5");
    expect_error("hello world\n", "x.txt", "not a mesh file");
    MtError err = {0};
    MtFeModel *m = mt_mesh_read("/nonexistent/mesh.inp", &err);
    CHECK(!m && strstr(err.msg, "cannot open"), "missing file: %s", err.msg);
}

/* ---- fuzzing ---------------------------------------------------------------------- */

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static unsigned long long rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* One to four random edits: byte changes, deletions, insertions of digits or
 * separators, a duplicated or dropped line, truncation. */
static size_t mutate(const char *src, size_t n, char *dst, size_t cap)
{
    memcpy(dst, src, n);
    int edits = 1 + (int)(rnd() % 4);
    for (int e = 0; e < edits && n > 2; e++) {
        size_t p = rnd() % n;
        switch (rnd() % 8) {
        case 0: dst[p] = (char)(32 + rnd() % 95); break;
        case 1: dst[p] = "0123456789-.,eE \n*$+"[rnd() % 20]; break;
        case 2: { /* delete a range */
            size_t l = 1 + rnd() % 12;
            if (p + l > n) l = n - p;
            memmove(dst + p, dst + p + l, n - p - l);
            n -= l;
            break;
        }
        case 3: { /* insert a number */
            static const char *const ins[] = {"9", "-1", "0", "99999999", "1e308", "2147483647", ",", "\n", "1.5", "nan"};
            const char *s = ins[rnd() % 10];
            size_t l = strlen(s);
            if (n + l >= cap) break;
            memmove(dst + p + l, dst + p, n - p);
            memcpy(dst + p, s, l);
            n += l;
            break;
        }
        case 4: { /* duplicate the line at p */
            size_t a = p, b = p;
            while (a > 0 && dst[a - 1] != '\n') a--;
            while (b < n && dst[b] != '\n') b++;
            size_t l = b - a + (b < n);
            if (n + l >= cap) break;
            memmove(dst + b + (b < n), dst + a, n - a);
            n += l;
            break;
        }
        case 5: { /* drop the line at p */
            size_t a = p, b = p;
            while (a > 0 && dst[a - 1] != '\n') a--;
            while (b < n && dst[b] != '\n') b++;
            if (b < n) b++;
            memmove(dst + a, dst + b, n - b);
            n -= b - a;
            break;
        }
        case 6: n = p; break; /* truncate */
        default: dst[p] = (char)(rnd() & 0xff); break;
        }
    }
    return n;
}

static void fuzz(const char *text, const char *name, int count)
{
    size_t n = strlen(text), cap = 2 * n + 256;
    char *buf = malloc(cap);
    int ok = 0, rejected = 0, noname = 0;
    for (int t = 0; t < count; t++) {
        size_t len = mutate(text, n, buf, cap);
        MtError err = {0};
        MtFeModel *m = mt_mesh_read_text(buf, len, name, MT_MESH_AUTO, &err);
        if (!m) {
            rejected++;
            noname += err.msg[0] == 0;
            continue;
        }
        ok++;
        /* what a reader accepts must be safe to use downstream */
        if (mt_fe_validate(m, &err) == MT_OK && m->nnode < 5000) {
            MtFeDofs *d = mt_fe_dofs_new(m, 0, NULL, &err);
            if (d) {
                MtFeCsc A;
                if (!mt_fe_assemble(m, d, &A, NULL, &err)) mt_fe_csc_free(&A);
                mt_fe_dofs_free(d);
            }
        }
        mt_fe_model_free(m);
    }
    printf("     %s: %d mutations, %d read, %d refused\n", name, count, ok, rejected);
    CHECK(noname == 0, "%s: every refusal has a message", name);
    free(buf);
}

/* ---- quadratic elements: hex20 and 8-node membranes in every reader ------------ */

/* A unit cube's 20 nodes labelled 1..20 in Motus's (Abaqus's) order: corners,
 * then the mid-edges 1-2, 2-3, 3-4, 4-1, 5-6, 6-7, 7-8, 8-5, 1-5, 2-6, 3-7, 4-8. */
static const int Q_EDGE[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
static void q_point(int k, double *x)
{
    static const double c[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    for (int i = 0; i < 3; i++) x[i] = k < 8 ? c[k][i] : 0.5 * (c[Q_EDGE[k - 8][0]][i] + c[Q_EDGE[k - 8][1]][i]);
}

/* Element e lists the nodes labelled 1..n in order (the reader put them in Motus's order). */
static int q_order(const MtFeModel *m, int e, int n)
{
    for (int k = 0; k < n; k++)
        if (m->nid[m->conn[m->elem[e].conn + k]] != k + 1) return 0;
    return 1;
}

static char QUAD_INP[8192], QUAD_BDF[8192]; /* fuzzed in main */

static void test_quadratic(void)
{
    printf("-- quadratic elements: C3D20 / CHEXA-20 / Gmsh 17 as hex20, CPS8 / membrane CQUAD8 as mem8, S8R / CQUAD8 / Gmsh 16 as quad8\n");
    char buf[8192];
    size_t k = 0;
    double x[3];
    /* Abaqus: hex20 in its own order; a CPS8 block named by a *SOLID SECTION (thickness 0.05) */
    k = (size_t)snprintf(buf, sizeof buf, "*NODE\n");
    for (int i = 0; i < 20; i++) q_point(i, x), k += (size_t)snprintf(buf + k, sizeof buf - k, "%d, %g, %g, %g\n", i + 1, x[0], x[1], x[2] + 2);
    for (int i = 0; i < 8; i++) q_point(i < 4 ? i : 8 + i - 4, x), k += (size_t)snprintf(buf + k, sizeof buf - k, "%d, %g, %g, 0\n", 101 + i, x[0], x[1]);
    k += (size_t)snprintf(buf + k, sizeof buf - k,
                          "*ELEMENT, TYPE=C3D20, ELSET=BRICK\n1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,\n16, 17, 18, 19, 20\n"
                          "*ELEMENT, TYPE=CPS8, ELSET=PLATE\n2, 101, 102, 103, 104, 105, 106, 107, 108\n"
                          "*ELEMENT, TYPE=CPS4, ELSET=MARKS\n3, 101, 102, 103, 104\n"
                          "*ELEMENT, TYPE=S8R, ELSET=SHELL\n4, 101, 102, 103, 104, 105, 106, 107, 108\n"
                          "*SHELL SECTION, ELSET=SHELL, MATERIAL=S\n0.02\n"
                          "*MATERIAL, NAME=S\n*ELASTIC\n2e11, 0.3\n*DENSITY\n8000\n"
                          "*SOLID SECTION, ELSET=BRICK, MATERIAL=S\n*SOLID SECTION, ELSET=PLATE, MATERIAL=S\n0.05\n");
    snprintf(QUAD_INP, sizeof QUAD_INP, "%s", buf);
    MtFeModel *m = read_text(buf, "quad.inp");
    if (!m) exit(1);
    CHECK(m->nelem == 3 && m->elem[0].type == MT_FE_HEX20 && q_order(m, 0, 20), "inp: C3D20 read as hex20 in order (%d elements)", m->nelem);
    CHECK(m->elem[1].type == MT_FE_QUAD8 && m->prop[m->elem[1].prop].t == 0.02, "inp: S8R read as quad8, thickness 0.02");
    CHECK(m->elem[2].type == MT_FE_MEM8 && m->prop[m->elem[2].prop].kind == MT_FE_PROP_SHELL && m->prop[m->elem[2].prop].t == 0.05,
          "inp: CPS8 with a *SOLID SECTION read as mem8, thickness 0.05");
    CHECK(m->nspc == 8 && m->spc[0].mask == 0x04, "inp: the CPS8's nodes hold uz (%d supports)", m->nspc);
    CHECK(mt_fe_find_set(m, "MARKS", MT_FE_SET_NODE) >= 0, "inp: a CPS4 block without a section still only marks nodes");
    MtError err = {0};
    CHECK(mt_fe_validate(m, &err) == MT_OK, "inp: validates: %s", err.msg);
    mt_fe_model_free(m);
    /* Nastran: CHEXA with 20 grids (G13-G16 vertical edges, G17-G20 top); CQUAD8 on a membrane-only PSHELL */
    k = (size_t)snprintf(buf, sizeof buf, "BEGIN BULK\nMAT1,1,2e11,,0.3,8000.\nPSOLID,1,1\nPSHELL,2,1,0.05\n");
    for (int i = 0; i < 20; i++) q_point(i, x), k += (size_t)snprintf(buf + k, sizeof buf - k, "GRID,%d,,%g,%g,%g\n", i + 1, x[0], x[1], x[2]);
    for (int i = 0; i < 8; i++) q_point(i < 4 ? i : 8 + i - 4, x), k += (size_t)snprintf(buf + k, sizeof buf - k, "GRID,%d,,%g,%g,-1\n", 101 + i, x[0], x[1]);
    k += (size_t)snprintf(buf + k, sizeof buf - k,
                          "CHEXA,1,1,1,2,3,4,5,6,\n,7,8,9,10,11,12,17,18,\n,19,20,13,14,15,16\n"
                          "CQUAD8,2,2,101,102,103,104,105,106,\n,107,108\nENDDATA\n");
    snprintf(QUAD_BDF, sizeof QUAD_BDF, "%s", buf);
    m = read_text(buf, "quad.bdf");
    if (!m) exit(1);
    CHECK(m->nelem == 2 && m->elem[0].type == MT_FE_HEX20 && q_order(m, 0, 20), "bdf: CHEXA-20 read as hex20, mid-edges reordered");
    CHECK(m->elem[1].type == MT_FE_MEM8 && m->prop[m->elem[1].prop].t == 0.05, "bdf: CQUAD8 on a membrane PSHELL read as mem8");
    CHECK(mt_fe_validate(m, &err) == MT_OK, "bdf: validates: %s", err.msg);
    mt_fe_model_free(m);
    /* Gmsh 2.2: type 17 lists its mid-edges 0-1, 0-3, 0-4, 1-2, 1-5, 2-3, 2-6, 3-7, 4-5, 4-7, 5-6, 6-7 */
    static const int gm[12] = {9, 12, 17, 10, 18, 11, 19, 20, 13, 16, 14, 15};
    k = (size_t)snprintf(buf, sizeof buf, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n20\n");
    for (int i = 0; i < 20; i++) q_point(i, x), k += (size_t)snprintf(buf + k, sizeof buf - k, "%d %g %g %g\n", i + 1, x[0], x[1], x[2]);
    k += (size_t)snprintf(buf + k, sizeof buf - k, "$EndNodes\n$Elements\n1\n1 17 2 0 1 1 2 3 4 5 6 7 8");
    for (int i = 0; i < 12; i++) k += (size_t)snprintf(buf + k, sizeof buf - k, " %d", gm[i]);
    snprintf(buf + k, sizeof buf - k, "\n$EndElements\n");
    m = read_text(buf, "quad.msh");
    if (!m) exit(1);
    CHECK(m->nelem == 1 && m->elem[0].type == MT_FE_HEX20 && q_order(m, 0, 20), "msh: Gmsh hex20 reordered to Motus's");
    mt_fe_model_free(m);
    snprintf(buf, sizeof buf, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n8\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n"
                              "5 .5 0 0\n6 1 .5 0\n7 .5 1 0\n8 0 .5 0\n$EndNodes\n$Elements\n1\n1 16 2 0 1 1 2 3 4 5 6 7 8\n$EndElements\n");
    m = read_text(buf, "quad8.msh");
    if (!m) exit(1);
    CHECK(m->nelem == 1 && m->elem[0].type == MT_FE_QUAD8 && q_order(m, 0, 8), "msh: Gmsh quad8 read as the 8-node shell");
    CHECK(mt_fe_default_props(m, 2e11, 0.3, 8000, 0.01, &err) == MT_OK && m->prop[m->elem[0].prop].t == 0.01,
          "msh: the shell takes the default thickness");
    mt_fe_model_free(m);
    snprintf(buf, sizeof buf, "BEGIN BULK\nMAT1,1,2e11,,0.3,8000.\nPSHELL,2,1,0.05,1\nGRID,1,,0,0,0\nGRID,2,,1,0,0\nGRID,3,,1,1,0\n"
                              "GRID,4,,0,1,0\nGRID,5,,.5,0,0\nGRID,6,,1,.5,0\nGRID,7,,.5,1,0\nGRID,8,,0,.5,0\nCQUAD8,2,2,1,2,3,4,5,6,\n,7,8\n");
    m = read_text(buf, "bend8.bdf");
    CHECK(m && m->elem[0].type == MT_FE_QUAD8 && q_order(m, 0, 8), "bdf: CQUAD8 on a PSHELL with bending read as quad8");
    mt_fe_model_free(m);
    expect_error("BEGIN BULK\nMAT1,1,2e11,,0.3,8000.\nPSOLID,1,1\nGRID,1,,0,0,0\nGRID,2,,1,0,0\nGRID,3,,1,1,0\nGRID,4,,0,1,0\n"
                 "GRID,5,,0,0,1\nGRID,6,,1,0,1\nGRID,7,,1,1,1\nGRID,8,,0,1,1\nGRID,9,,.5,0,0\nCHEXA,1,1,1,2,3,4,5,6,\n,7,8,9\n",
                 "hex9.bdf", "hex9.bdf:13: CHEXA 1: 1 of the 12 mid-edge nodes given");
}

int main(void)
{
    test_gmsh();
    test_quadratic();
    test_inp();
    test_bdf();
    test_errors();
    printf("-- fuzzing the readers: random mutations of valid files never crash\n");
    fuzz(TINY_MSH2, "fz.msh", 1000);
    fuzz(TINY_MSH4, "fz.msh", 1000);
    fuzz(TINY_INP, "fz.inp", 800);
    fuzz(INP_SAMPLE, "fz.inp", 1500);
    for (int f = 0; f < 3; f++) fuzz(BDF[f], "fz.bdf", 700);
    fuzz(QUAD_INP, "fz.inp", 600); /* hex20, and CPS8 blocks turned into membranes */
    fuzz(QUAD_BDF, "fz.bdf", 600);
    return mt_test_done();
}
