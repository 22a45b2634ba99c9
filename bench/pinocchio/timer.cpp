// Pinocchio's articulated-body algorithm `aba` on the counterpart of the "rigidchain N"
// family (`nonholo-macros/src/spatial_tests.rs`, `spatial(n, Family::RigidChain)`).
//
// The rolling disk becomes a free-flying root (Pinocchio has no rolling constraints):
// mass m = 1, radius r = 0.5, inertia diag(m r^2/4, m r^2/2, m r^2/4) about its centre.
// Link i turns relative to its parent about x, then about the turned y (a revolute X joint
// followed by a revolute Y joint at the same point), hangs from the disk's centre (i = 1,
// identity placement in the free-flyer's frame) or from the end of link i - 1 (the
// translation (0, 0, -l) in that link's frame), and carries a box of mass ml = 0.2 with its
// centre at (0.01, -0.005, -l/2) in the link's frame and the inertia tensor about it
//   [ ixx  ixy  izx ]
//   [ ixy  iyy  iyz ]     ixx = ml (l^2 + 0.0016)/12, iyy = ml (l^2 + 0.01)/12, izz = ml 0.0116/12,
//   [ izx  iyz  izz ]     ixy = 0.00002, iyz = -0.00001, izx = 0.00003,
// as the DSL's `inertia(K, ixx, iyy, izz, ixy, iyz, izx)` puts its six components into the
// tensor (the products as they are, not negated). l = 0.3, gravity 9.81 along -z.
// 2N + 6 degrees of freedom.
//
// Usage: timer [N...]   (default 2 4 6 8 10 12 16). Prints a markdown table of the time
// per `aba` call (best of 5 batches of 20000 calls) and per `computeABADerivatives` call
// (Carpentier and Mansard's analytical derivatives: ddq/dq, ddq/dv and M^-1 = ddq/dtau;
// best of 5 batches of 2000 calls) and, once, the largest difference between aba's
// accelerations and the solution of M ddq = tau - nle (crba, rnea).

#include <pinocchio/multibody.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace pinocchio;

static Model rigid_chain(int n) {
  Model model;
  model.gravity.linear(Eigen::Vector3d(0.0, 0.0, -9.81));
  const double m = 1.0, r = 0.5, ml = 0.2, l = 0.3;

  JointIndex disk = model.addJoint(0, JointModelFreeFlyer(), SE3::Identity(), "disk");
  Eigen::Matrix3d Id = Eigen::Vector3d(0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r).asDiagonal();
  model.appendBodyToJoint(disk, Inertia(m, Eigen::Vector3d::Zero(), Id), SE3::Identity());

  const double ixx = ml * (l * l + 0.0016) / 12.0, iyy = ml * (l * l + 0.01) / 12.0,
               izz = ml * 0.0116 / 12.0, ixy = 0.00002, iyz = -0.00001, izx = 0.00003;
  Eigen::Matrix3d Il;
  Il << ixx, ixy, izx,
        ixy, iyy, iyz,
        izx, iyz, izz;
  const Inertia link(ml, Eigen::Vector3d(0.01, -0.005, -0.5 * l), Il);

  JointIndex parent = disk;
  for (int i = 1; i <= n; ++i) {
    SE3 at = SE3::Identity();
    if (i > 1) at.translation(Eigen::Vector3d(0.0, 0.0, -l));
    const std::string s = std::to_string(i);
    JointIndex a = model.addJoint(parent, JointModelRX(), at, "a" + s);
    JointIndex b = model.addJoint(a, JointModelRY(), SE3::Identity(), "b" + s);
    model.appendBodyToJoint(b, link, SE3::Identity());
    parent = b;
  }
  return model;
}

int main(int argc, char **argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {2, 4, 6, 8, 10, 12, 16};

  const int calls = 20000, batches = 5;
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double sink = 0.0, residual = 0.0, scale = 0.0;

  std::printf("| N | dof | aba (ns) | ns per dof | computeABADerivatives (ns) | derivatives / aba |\n"
              "| --- | --- | --- | --- | --- | --- |\n");
  for (int n : sizes) {
    const Model model = rigid_chain(n);
    Data data(model);

    // q: position, unit quaternion (x, y, z, w), then the joint angles
    Eigen::VectorXd q(model.nq), v(model.nv), tau(model.nv);
    for (int k = 0; k < model.nq; ++k) q[k] = u(rng);
    q.segment<4>(3).normalize();
    for (int k = 7; k < model.nq; ++k) q[k] *= M_PI;
    for (int k = 0; k < model.nv; ++k) v[k] = u(rng), tau[k] = u(rng);

    // accelerations from M ddq = tau - nle
    crba(model, data, q);
    data.M.triangularView<Eigen::StrictlyLower>() = data.M.transpose().triangularView<Eigen::StrictlyLower>();
    const Eigen::MatrixXd M = data.M;
    const Eigen::VectorXd nle = nonLinearEffects(model, data, q, v);
    const Eigen::VectorXd ddq_ref = M.ldlt().solve(tau - nle);
    const Eigen::VectorXd ddq = aba(model, data, q, v, tau);
    residual = std::max(residual, (ddq - ddq_ref).cwiseAbs().maxCoeff());
    scale = std::max(scale, ddq_ref.cwiseAbs().maxCoeff());

    for (int k = 0; k < calls; ++k) sink += aba(model, data, q, v, tau)[0];  // warm-up
    double best = std::numeric_limits<double>::infinity();
    for (int b = 0; b < batches; ++b) {
      const auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < calls; ++k) {
        aba(model, data, q, v, tau);
        sink += data.ddq[0];
      }
      const std::chrono::duration<double, std::nano> t = std::chrono::steady_clock::now() - start;
      best = std::min(best, t.count() / calls);
    }
    double best_d = std::numeric_limits<double>::infinity();
    for (int b = 0; b < batches; ++b) {
      const auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < calls / 10; ++k) {
        computeABADerivatives(model, data, q, v, tau);
        sink += data.ddq_dq(0, 0);
      }
      const std::chrono::duration<double, std::nano> t = std::chrono::steady_clock::now() - start;
      best_d = std::min(best_d, t.count() / (calls / 10));
    }
    std::printf("| %d | %d | %.0f | %.0f | %.0f | %.1f |\n", n, model.nv, best, best / model.nv,
                best_d, best_d / best);
  }
  std::printf("\nmax |ddq(aba) - M^-1 (tau - nle)| = %.1e (crba, rnea; max |ddq| = %.1e)\n", residual, scale);
  std::fprintf(stderr, "(checksum %g)\n", sink);
  return 0;
}
